;; The quiet-row check of the annotator (table.ts, quietRowPattern) on UTF-8 bytes, with
;; WebAssembly SIMD: 64 bytes at a time become bit masks (line feeds, the separator, commas,
;; characters that a quiet row may not hold), and each row is then checked on those masks;
;; only the numeric columns' fields are read byte by byte. It accepts a row only where the
;; row regex would (a subset: where it is unsure it stops, and the regex goes on from there).
;; Built into quiet-rows.wasm by `npm run build:wasm` (tools/wasm.ts); quiet-kernel.ts loads it.
(module
  (memory (export "memory") 1)
  ;; Rows accepted by the last scan, and whether it stopped at a complete row it did not take
  ;; (0: it ran out of complete rows in the window).
  (global $rows (export "rows") (mut i32) (i32.const 0))
  (global $stopped (export "stopped") (mut i32) (i32.const 0))

  ;; Rows from $p (a row start) to $end: the address after the last row taken. $table holds 16
  ;; bytes, per low nibble the one character with that nibble that a quiet row may not hold
  ;; (tab, `|`, `;`, `:`, `"`, CR, less the separator), CR and colon being allowed where
  ;; $allowed says. $states holds per column 0 (any text: settled), 1 (a number or nothing:
  ;; float) or 2 (an integer), read up to column $lastNumeric (-1: none). $commas is 1 when
  ;; a field may hold one comma (separator not comma), else 0. $stripped: separator tab or
  ;; pipe, whose rows may not start or end with whitespace.
  (func (export "scan")
    (param $p i32) (param $end i32) (param $sep i32) (param $count i32) (param $stripped i32)
    (param $states i32) (param $lastNumeric i32) (param $table i32) (param $commas i32)
    (result i32)
    (local $b i32) (local $rowStart i32) (local $rowEnd i32) (local $seps i32) (local $flag i32)
    (local $i i32) (local $borrow i64) (local $t i64) (local $x i64) (local $boundary i64)
    (local $nl i64) (local $sp i64) (local $cm i64) (local $bad i64)
    (local $from i64) (local $below i64) (local $row i64) (local $lines i64)
    (local $v v128) (local $tbl v128) (local $vsep v128) (local $vnl v128) (local $vcm v128)
    (local $v0f v128) (local $cmask i64)
    (local.set $cmask (i64.sub (i64.const 0) (i64.extend_i32_u (local.get $commas))))
    (global.set $rows (i32.const 0))
    (global.set $stopped (i32.const 0))
    (local.set $tbl (v128.load (local.get $table)))
    (local.set $vsep (i8x16.splat (local.get $sep)))
    (local.set $vnl (i8x16.splat (i32.const 10)))
    (local.set $vcm (i8x16.splat (i32.const 44)))
    (local.set $v0f (i8x16.splat (i32.const 15)))
    (local.set $rowStart (local.get $p))
    (local.set $b (local.get $p))
    (block $out
      (block $stop
        (loop $blocks
          (br_if $out (i32.ge_u (local.get $b) (local.get $end)))
          ;; bytes 0-15
          (local.set $v (v128.load (local.get $b)))
          (local.set $nl (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v) (local.get $vnl)))))
          (local.set $sp (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v) (local.get $vsep)))))
          (local.set $cm (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v) (local.get $vcm)))))
          (local.set $bad (i64.extend_i32_u (i8x16.bitmask (i8x16.eq (local.get $v)
            (i8x16.swizzle (local.get $tbl) (v128.and (local.get $v) (local.get $v0f)))))))
          ;; bytes 16-31
          (local.set $v (v128.load offset=16 (local.get $b)))
          (local.set $nl (i64.or (local.get $nl) (i64.shl (i64.extend_i32_u
            (i8x16.bitmask (i8x16.eq (local.get $v) (local.get $vnl)))) (i64.const 16))))
          (local.set $sp (i64.or (local.get $sp) (i64.shl (i64.extend_i32_u
            (i8x16.bitmask (i8x16.eq (local.get $v) (local.get $vsep)))) (i64.const 16))))
          (local.set $cm (i64.or (local.get $cm) (i64.shl (i64.extend_i32_u
            (i8x16.bitmask (i8x16.eq (local.get $v) (local.get $vcm)))) (i64.const 16))))
          (local.set $bad (i64.or (local.get $bad) (i64.shl (i64.extend_i32_u
            (i8x16.bitmask (i8x16.eq (local.get $v)
              (i8x16.swizzle (local.get $tbl) (v128.and (local.get $v) (local.get $v0f))))))
            (i64.const 16))))
          ;; bytes 32-47
          (local.set $v (v128.load offset=32 (local.get $b)))
          (local.set $nl (i64.or (local.get $nl) (i64.shl (i64.extend_i32_u
            (i8x16.bitmask (i8x16.eq (local.get $v) (local.get $vnl)))) (i64.const 32))))
          (local.set $sp (i64.or (local.get $sp) (i64.shl (i64.extend_i32_u
            (i8x16.bitmask (i8x16.eq (local.get $v) (local.get $vsep)))) (i64.const 32))))
          (local.set $cm (i64.or (local.get $cm) (i64.shl (i64.extend_i32_u
            (i8x16.bitmask (i8x16.eq (local.get $v) (local.get $vcm)))) (i64.const 32))))
          (local.set $bad (i64.or (local.get $bad) (i64.shl (i64.extend_i32_u
            (i8x16.bitmask (i8x16.eq (local.get $v)
              (i8x16.swizzle (local.get $tbl) (v128.and (local.get $v) (local.get $v0f))))))
            (i64.const 32))))
          ;; bytes 48-63
          (local.set $v (v128.load offset=48 (local.get $b)))
          (local.set $nl (i64.or (local.get $nl) (i64.shl (i64.extend_i32_u
            (i8x16.bitmask (i8x16.eq (local.get $v) (local.get $vnl)))) (i64.const 48))))
          (local.set $sp (i64.or (local.get $sp) (i64.shl (i64.extend_i32_u
            (i8x16.bitmask (i8x16.eq (local.get $v) (local.get $vsep)))) (i64.const 48))))
          (local.set $cm (i64.or (local.get $cm) (i64.shl (i64.extend_i32_u
            (i8x16.bitmask (i8x16.eq (local.get $v) (local.get $vcm)))) (i64.const 48))))
          (local.set $bad (i64.or (local.get $bad) (i64.shl (i64.extend_i32_u
            (i8x16.bitmask (i8x16.eq (local.get $v)
              (i8x16.swizzle (local.get $tbl) (v128.and (local.get $v) (local.get $v0f))))))
            (i64.const 48))))
          ;; No row ends past the window (the bytes there are left over from earlier windows).
          (if (i32.lt_u (i32.sub (local.get $end) (local.get $b)) (i32.const 64))
            (then (local.set $nl (i64.and (local.get $nl)
              (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (i32.sub (local.get $end) (local.get $b))))
                (i64.const 1))))))
          ;; CR before LF and a colon not before a colon or whitespace are allowed.
          (if (i64.ne (local.get $bad) (i64.const 0))
            (then (local.set $bad (call $allowed (local.get $b) (local.get $bad)))))
          ;; A second comma in a field: the separators and line feeds less the commas, as one
          ;; long number across blocks, keeps only each field's first comma (each later one
          ;; is borrowed away); the borrow carries into the next block.
          (local.set $cm (i64.and (local.get $cm) (local.get $cmask)))
          (local.set $boundary (i64.or (local.get $sp) (local.get $nl)))
          (local.set $t (i64.sub (local.get $boundary) (local.get $cm)))
          (local.set $x (i64.sub (local.get $t) (local.get $borrow)))
          (local.set $borrow (i64.extend_i32_u (i32.or
            (i64.lt_u (local.get $boundary) (local.get $cm))
            (i64.lt_u (local.get $t) (local.get $borrow)))))
          (local.set $bad (i64.or (local.get $bad)
            (i64.and (local.get $cm) (i64.xor (local.get $x) (i64.const -1)))))
          ;; The rows that end in this block.
          (local.set $from (i64.const -1))
          (local.set $lines (local.get $nl))
          (block $rowsDone
            (loop $eachRow
              (br_if $rowsDone (i64.eqz (local.get $lines)))
              (local.set $i (i32.wrap_i64 (i64.ctz (local.get $lines))))
              ;; bits 0..i (for i = 63 the shift wraps to 0, and 0 - 1 is every bit)
              (local.set $below (i64.sub (i64.shl (i64.const 2) (i64.extend_i32_u (local.get $i)))
                (i64.const 1)))
              (local.set $row (i64.and (local.get $below) (local.get $from)))
              (br_if $stop (local.get $flag))
              (br_if $stop (i64.ne (i64.and (local.get $bad) (local.get $row)) (i64.const 0)))
              (br_if $stop (i32.ne (local.get $count) (i32.add (local.get $seps)
                (i32.wrap_i64 (i64.popcnt (i64.and (local.get $sp) (local.get $row)))))))
              (local.set $rowEnd (i32.add (local.get $b) (local.get $i)))
              (if (local.get $stripped)
                (then (br_if $stop (i32.eqz (call $strippedEnds (local.get $rowStart) (local.get $rowEnd))))))
              (if (i32.ge_s (local.get $lastNumeric) (i32.const 0))
                (then (br_if $stop (i32.eqz (call $numbers (local.get $rowStart) (local.get $sep)
                  (local.get $count) (local.get $states) (local.get $lastNumeric))))))
              (global.set $rows (i32.add (global.get $rows) (i32.const 1)))
              (local.set $rowStart (i32.add (local.get $rowEnd) (i32.const 1)))
              (local.set $seps (i32.const 0))
              (local.set $from (i64.xor (local.get $below) (i64.const -1)))
              (local.set $lines (i64.and (local.get $lines) (i64.sub (local.get $lines) (i64.const 1))))
              (br $eachRow)))
          ;; The rest of the block belongs to the row that goes on into the next one.
          (local.set $seps (i32.add (local.get $seps)
            (i32.wrap_i64 (i64.popcnt (i64.and (local.get $sp) (local.get $from))))))
          (local.set $flag (i32.or (local.get $flag)
            (i64.ne (i64.and (local.get $bad) (local.get $from)) (i64.const 0))))
          (local.set $b (i32.add (local.get $b) (i32.const 64)))
          (br $blocks)))
      (global.set $stopped (i32.const 1)))
    (local.get $rowStart))

  ;; $bad (the bytes at $b matched by the table) less the CRs before a LF and the colons
  ;; followed by neither a colon nor whitespace (any byte above ASCII might be Unicode
  ;; whitespace: such a colon stays bad).
  (func $allowed (param $b i32) (param $bad i64) (result i64)
    (local $bits i64) (local $a i32) (local $c i32) (local $n i32)
    (local.set $bits (local.get $bad))
    (block $done
      (loop $each
        (br_if $done (i64.eqz (local.get $bits)))
        (local.set $a (i32.add (local.get $b) (i32.wrap_i64 (i64.ctz (local.get $bits)))))
        (local.set $c (i32.load8_u (local.get $a)))
        (local.set $n (i32.load8_u offset=1 (local.get $a)))
        (if (i32.or
              (i32.and (i32.eq (local.get $c) (i32.const 13)) (i32.eq (local.get $n) (i32.const 10)))
              (i32.and (i32.eq (local.get $c) (i32.const 58))
                (i32.and (i32.and (i32.ne (local.get $n) (i32.const 58)) (i32.ne (local.get $n) (i32.const 32)))
                  (i32.and (i32.gt_u (i32.sub (local.get $n) (i32.const 9)) (i32.const 4))
                    (i32.lt_u (local.get $n) (i32.const 128))))))
          (then (local.set $bad (i64.and (local.get $bad)
            (i64.xor (i64.and (local.get $bits) (i64.sub (i64.const 0) (local.get $bits))) (i64.const -1))))))
        (local.set $bits (i64.and (local.get $bits) (i64.sub (local.get $bits) (i64.const 1))))
        (br $each)))
    (local.get $bad))

  ;; Whether byte $c may start or end a row read with a regex separator: not whitespace, not
  ;; \x1c-\x1f, not above ASCII (\x85 and Unicode whitespace are; such rows go to the regex).
  (func $edge (param $c i32) (result i32)
    (i32.and
      (i32.and (i32.ne (local.get $c) (i32.const 32)) (i32.gt_u (i32.sub (local.get $c) (i32.const 9)) (i32.const 4)))
      (i32.and (i32.gt_u (i32.sub (local.get $c) (i32.const 28)) (i32.const 3)) (i32.lt_u (local.get $c) (i32.const 128)))))

  ;; The row from $start to its LF at $lf neither starts nor ends (before CR LF) with whitespace.
  (func $strippedEnds (param $start i32) (param $lf i32) (result i32)
    (local $last i32)
    (local.set $last (i32.sub (local.get $lf) (i32.const 1)))
    (if (i32.eq (i32.load8_u (local.get $last)) (i32.const 13))
      (then (local.set $last (i32.sub (local.get $last) (i32.const 1)))))
    (i32.and (call $edge (i32.load8_u (local.get $start))) (call $edge (i32.load8_u (local.get $last)))))

  ;; The numeric columns of the row at $p (which has exactly $count separators), up to column
  ;; $last: an integer ` *[+-]?\d+ *`, a float `(?: *NUMBER *)?` with NUMBER
  ;; `[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?`; each ends at the separator, the last
  ;; column at CR LF or LF.
  (func $numbers (param $p i32) (param $sep i32) (param $count i32) (param $states i32) (param $last i32)
    (result i32)
    (local $col i32) (local $state i32) (local $c i32) (local $q i32) (local $digits i32)
    (loop $columns
      (local.set $state (i32.load8_u (i32.add (local.get $states) (local.get $col))))
      (if (i32.eqz (local.get $state))
        (then
          ;; settled: skip to the field's separator (column < $last <= $count, so there is one)
          (block $found
            (loop $skip
              (br_if $found (i32.eq (i32.load8_u (local.get $p)) (local.get $sep)))
              (local.set $p (i32.add (local.get $p) (i32.const 1)))
              (br $skip))))
        (else
          (local.set $q (local.get $p))
          (local.set $p (call $spaces (local.get $p)))
          (local.set $c (i32.load8_u (local.get $p)))
          (if (i32.and (i32.eq (local.get $state) (i32.const 1))
                (call $ends (local.get $p) (local.get $c) (local.get $sep) (i32.eq (local.get $col) (local.get $count))))
            (then
              ;; an empty float field is NA; one of spaces only is not a number
              (if (i32.ne (local.get $p) (local.get $q)) (then (return (i32.const 0)))))
            (else
              (if (i32.or (i32.eq (local.get $c) (i32.const 43)) (i32.eq (local.get $c) (i32.const 45)))
                (then (local.set $p (i32.add (local.get $p) (i32.const 1)))))
              (local.set $q (local.get $p))
              (local.set $p (call $digits (local.get $p)))
              (local.set $digits (i32.sub (local.get $p) (local.get $q)))
              (if (i32.eq (local.get $state) (i32.const 1))
                (then
                  (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 46))
                    (then
                      (local.set $q (i32.add (local.get $p) (i32.const 1)))
                      (local.set $p (call $digits (local.get $q)))
                      (local.set $digits (i32.add (local.get $digits) (i32.sub (local.get $p) (local.get $q))))))
                  (if (i32.eq (i32.or (i32.load8_u (local.get $p)) (i32.const 32)) (i32.const 101))
                    (then
                      (if (i32.eqz (local.get $digits)) (then (return (i32.const 0))))
                      (local.set $p (i32.add (local.get $p) (i32.const 1)))
                      (local.set $c (i32.load8_u (local.get $p)))
                      (if (i32.or (i32.eq (local.get $c) (i32.const 43)) (i32.eq (local.get $c) (i32.const 45)))
                        (then (local.set $p (i32.add (local.get $p) (i32.const 1)))))
                      (local.set $q (local.get $p))
                      (local.set $p (call $digits (local.get $p)))
                      (if (i32.eq (local.get $p) (local.get $q)) (then (return (i32.const 0))))))))
              (if (i32.eqz (local.get $digits)) (then (return (i32.const 0))))
              (local.set $p (call $spaces (local.get $p)))
              (if (i32.eqz (call $ends (local.get $p) (i32.load8_u (local.get $p)) (local.get $sep)
                    (i32.eq (local.get $col) (local.get $count))))
                (then (return (i32.const 0))))))))
      ;; past the separator
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (local.set $col (i32.add (local.get $col) (i32.const 1)))
      (br_if $columns (i32.le_s (local.get $col) (local.get $last))))
    (i32.const 1))

  (func $spaces (param $p i32) (result i32)
    (block $done
      (loop $more
        (br_if $done (i32.ne (i32.load8_u (local.get $p)) (i32.const 32)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $more)))
    (local.get $p))

  (func $digits (param $p i32) (result i32)
    (block $done
      (loop $more
        (br_if $done (i32.gt_u (i32.sub (i32.load8_u (local.get $p)) (i32.const 48)) (i32.const 9)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $more)))
    (local.get $p))

  ;; Whether the field ends at $p (byte $c): the separator, or for the last column CR LF or LF.
  (func $ends (param $p i32) (param $c i32) (param $sep i32) (param $last i32) (result i32)
    (if (result i32) (local.get $last)
      (then (i32.or (i32.eq (local.get $c) (i32.const 10))
        (i32.and (i32.eq (local.get $c) (i32.const 13)) (i32.eq (i32.load8_u offset=1 (local.get $p)) (i32.const 10)))))
      (else (i32.eq (local.get $c) (local.get $sep)))))

  ;; UTF-16 code units of the UTF-8 bytes from $a to $b: every byte but continuation bytes,
  ;; and one more for each four-byte sequence (a surrogate pair).
  (func (export "units") (param $a i32) (param $b i32) (result i32)
    (local $n i32) (local $v v128) (local $lead v128) (local $four v128)
    (local.set $lead (i8x16.splat (i32.const -65)))
    (local.set $four (i8x16.splat (i32.const 0xef)))
    (block $done
      (loop $blocks
        (br_if $done (i32.gt_s (i32.add (local.get $a) (i32.const 16)) (local.get $b)))
        (local.set $v (v128.load (local.get $a)))
        (local.set $n (i32.add (local.get $n) (i32.add
          (i32.popcnt (i8x16.bitmask (i8x16.gt_s (local.get $v) (local.get $lead))))
          (i32.popcnt (i8x16.bitmask (i8x16.gt_u (local.get $v) (local.get $four)))))))
        (local.set $a (i32.add (local.get $a) (i32.const 16)))
        (br $blocks)))
    (block $done
      (loop $bytes
        (br_if $done (i32.ge_u (local.get $a) (local.get $b)))
        (local.set $n (i32.add (local.get $n) (i32.add
          (i32.ne (i32.and (i32.load8_u (local.get $a)) (i32.const 0xc0)) (i32.const 0x80))
          (i32.gt_u (i32.load8_u (local.get $a)) (i32.const 0xef)))))
        (local.set $a (i32.add (local.get $a) (i32.const 1)))
        (br $bytes)))
    (local.get $n)))
