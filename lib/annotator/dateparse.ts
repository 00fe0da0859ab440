// Emulates `dateutil.parser.parse(text)` (non-fuzzy, month-first, today as the default) as the
// original annotator uses it: to decide whether a cell is a DATE and to write its ISO form.
// The token rules follow dateutil's documented behaviour ("20.02.2008", "2023-09-13T13:20:37",
// "12:30", "3h", "Jan 5 2020", "5 s" all parse; "May" alone never reaches here).
import {
  ampm,
  daysIn,
  DateError,
  floatOk,
  hms,
  isDigitString,
  jump,
  lex,
  month,
  toDecimal,
  toInt,
  UTC_ZONES,
  weekday,
  Ymd,
  type Result,
} from './datelex.ts';

function parseMs(text: string): [number, number] {
  if (!text.includes('.')) return [toInt(text), 0];
  const [i, f] = text.split('.');
  if (f === undefined || text.split('.').length !== 2) throw new DateError('ms');
  return [toInt(i as string), f === '' ? 0 : toInt(f.padEnd(6, '0').slice(0, 6))];
}

function minSec(value: number): [number, number | undefined] {
  const rem = value % 1;
  return [Math.trunc(value), rem ? Math.trunc(60 * rem) : undefined];
}

function adjustAmpm(hour: number, value: number): number {
  if (hour < 12 && value === 1) return hour + 12;
  if (hour === 12 && value === 0) return 0;
  return hour;
}

function findHmsIndex(i: number, l: string[]): number | undefined {
  if (hms(l[i + 1]) !== undefined) return i + 1;
  if (l[i + 1] === ' ' && hms(l[i + 2]) !== undefined) return i + 2;
  if (i > 0 && hms(l[i - 1]) !== undefined) return i - 1;
  if (i > 1 && i === l.length - 1 && l[i - 1] === ' ' && hms(l[i - 2]) !== undefined) return i - 2;
  return undefined;
}

function parseNumeric(l: string[], start: number, ymd: Ymd, res: Result): number {
  let i = start;
  const repr = l[i] as string;
  const value = toDecimal(repr);
  const len = repr.length;
  const next = l[i + 1];
  if (
    ymd.values.length === 3 &&
    (len === 2 || len === 4) &&
    res.hour === undefined &&
    (next === undefined || (next !== ':' && hms(next) === undefined))
  ) {
    res.hour = toInt(repr.slice(0, 2));
    if (len === 4) res.minute = toInt(repr.slice(2));
  } else if (len === 6 || (len > 6 && repr.indexOf('.') === 6)) {
    if (ymd.values.length === 0 && !repr.includes('.')) {
      ymd.append(repr.slice(0, 2));
      ymd.append(repr.slice(2, 4));
      ymd.append(repr.slice(4));
    } else {
      res.hour = toInt(repr.slice(0, 2));
      res.minute = toInt(repr.slice(2, 4));
      [res.second, res.microsecond] = parseMs(repr.slice(4));
    }
  } else if (len === 8 || len === 12 || len === 14) {
    ymd.append(repr.slice(0, 4), 'Y');
    ymd.append(repr.slice(4, 6));
    ymd.append(repr.slice(6, 8));
    if (len > 8) {
      res.hour = toInt(repr.slice(8, 10));
      res.minute = toInt(repr.slice(10, 12));
      if (len > 12) res.second = toInt(repr.slice(12));
    }
  } else if (findHmsIndex(i, l) !== undefined) {
    const h = findHmsIndex(i, l) as number;
    const unit = h > i ? (hms(l[h]) as number) : (hms(l[h]) as number) + 1;
    if (h > i) i = h;
    if (unit === 0) {
      res.hour = Math.trunc(value);
      if (value % 1) res.minute = Math.trunc(60 * (value % 1));
    } else if (unit === 1) [res.minute, res.second] = minSec(value);
    else if (unit === 2) [res.second, res.microsecond] = parseMs(repr);
  } else if (i + 2 < l.length && next === ':') {
    res.hour = Math.trunc(value);
    const [mm, ss] = minSec(toDecimal(l[i + 2] as string));
    res.minute = mm;
    res.second = ss;
    if (i + 4 < l.length && l[i + 3] === ':') {
      [res.second, res.microsecond] = parseMs(l[i + 4] as string);
      i += 2;
    }
    i += 2;
  } else if (next === '-' || next === '/' || next === '.') {
    ymd.append(repr);
    if (i + 2 < l.length && !jump(l[i + 2])) {
      const third = l[i + 2] as string;
      if (isDigitString(third)) ymd.append(third);
      else {
        const m = month(third);
        if (m === undefined) throw new DateError('month');
        ymd.append(m, 'M');
      }
      if (i + 3 < l.length && l[i + 3] === next) {
        const fifth = l[i + 4];
        if (fifth === undefined) throw new DateError('index');
        const m = month(fifth);
        if (m !== undefined) ymd.append(m, 'M');
        else ymd.append(fifth);
        i += 2;
      }
      i += 1;
    }
    i += 1;
  } else if (next === undefined || jump(next)) {
    if (i + 2 < l.length && ampm(l[i + 2]) !== undefined) {
      res.hour = adjustAmpm(Math.trunc(value), ampm(l[i + 2]) as number);
      i += 1;
    } else ymd.append(value);
    i += 1;
  } else if (ampm(next) !== undefined && value >= 0 && value < 24) {
    res.hour = adjustAmpm(Math.trunc(value), ampm(next) as number);
    i += 1;
  } else if (ymd.couldBeDay(value)) ymd.append(value);
  else throw new DateError('numeric');
  return i;
}

const couldBeTzName = (res: Result, token: string): boolean =>
  res.hour !== undefined &&
  res.tzname === undefined &&
  res.tzoffset === undefined &&
  token.length <= 5 &&
  (/^[A-Z]*$/.test(token) || UTC_ZONES.includes(token));

function parseTokens(text: string): { res: Result; ymd: Ymd } {
  const l = lex(text);
  const res: Result = {};
  const ymd = new Ymd();
  for (let i = 0; i < l.length; i++) {
    const token = l[i] as string;
    if (floatOk(token)) {
      i = parseNumeric(l, i, ymd, res);
    } else if (weekday(token) !== undefined) {
      res.weekday = weekday(token);
    } else if (month(token) !== undefined) {
      ymd.append(month(token) as number, 'M');
      if (i + 1 < l.length) {
        if (l[i + 1] === '-' || l[i + 1] === '/') {
          const sep = l[i + 1];
          const day = l[i + 2];
          if (day === undefined) throw new DateError('index');
          ymd.append(day);
          if (i + 3 < l.length && l[i + 3] === sep) {
            const year = l[i + 4];
            if (year === undefined) throw new DateError('index');
            ymd.append(year);
            i += 2;
          }
          i += 2;
        } else if (
          i + 4 < l.length &&
          l[i + 1] === ' ' &&
          l[i + 3] === ' ' &&
          l[i + 2]?.toLowerCase() === 'of'
        ) {
          if (/^\d+$/.test(l[i + 4] as string))
            ymd.append(String(convertYear(toInt(l[i + 4] as string), false)), 'Y');
          i += 4;
        }
      }
    } else if (ampm(token) !== undefined) {
      if (res.hour === undefined || res.hour < 0 || res.hour > 12) throw new DateError('ampm');
      res.hour = adjustAmpm(res.hour, ampm(token) as number);
      res.ampm = ampm(token);
    } else if (couldBeTzName(res, token)) {
      res.tzname = token;
      res.tzoffset = UTC_ZONES.includes(token) ? 0 : undefined;
      if (l[i + 1] === '+' || l[i + 1] === '-') {
        l[i + 1] = l[i + 1] === '+' ? '-' : '+';
        res.tzoffset = undefined;
        if (UTC_ZONES.map((z) => z.toLowerCase()).includes(token.toLowerCase())) res.tzname = undefined;
      }
    } else if (res.hour !== undefined && (token === '+' || token === '-')) {
      const sign = token === '+' ? 1 : -1;
      const off = l[i + 1];
      if (off === undefined) throw new DateError('index');
      let hours: number;
      let minutes: number;
      if (off.length === 4) [hours, minutes] = [toInt(off.slice(0, 2)), toInt(off.slice(2))];
      else if (i + 2 < l.length && l[i + 2] === ':') {
        hours = toInt(off);
        minutes = toInt(l[i + 3] ?? '');
        i += 2;
      } else if (off.length <= 2) [hours, minutes] = [toInt(off.slice(0, 2)), 0];
      else throw new DateError('offset');
      res.tzoffset = sign * (hours * 3600 + minutes * 60);
      const name = l[i + 4];
      if (
        i + 5 < l.length &&
        jump(l[i + 2]) &&
        l[i + 3] === '(' &&
        l[i + 5] === ')' &&
        name &&
        name.length >= 3 &&
        couldBeTzName(res, name)
      ) {
        res.tzname = name;
        i += 4;
      }
      i += 1;
    } else if (!jump(token)) {
      throw new DateError('unknown token');
    }
  }
  return { res, ymd };
}

function convertYear(year: number, centurySpecified: boolean, now = new Date()): number {
  if (year >= 100 || centurySpecified) return year;
  const current = now.getFullYear();
  let y = year + Math.floor(current / 100) * 100;
  if (y >= current + 50) y -= 100;
  else if (y < current - 50) y += 100;
  return y;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** ISO form (`datetime.isoformat()`) of what dateutil reads in `text`, or undefined. */
export function parseDate(text: string, now: Date = new Date()): string | undefined {
  let parsed: { res: Result; ymd: Ymd };
  let ymdValues: [number?, number?, number?];
  try {
    parsed = parseTokens(text);
    ymdValues = parsed.ymd.resolve();
  } catch (error) {
    if (error instanceof DateError || error instanceof RangeError) return undefined;
    throw error;
  }
  const { res, ymd } = parsed;
  [res.year, res.month, res.day] = ymdValues;
  if (res.year !== undefined) {
    if (res.year < 0) return undefined;
    res.year = convertYear(res.year, ymd.centurySpecified, now);
  }
  if (res.tzname === 'Z' || res.tzname === 'z' || (res.tzoffset === 0 && !res.tzname))
    [res.tzname, res.tzoffset] = ['UTC', 0];
  else if (
    res.tzoffset !== 0 &&
    res.tzname &&
    UTC_ZONES.map((z) => z.toLowerCase()).includes(res.tzname.toLowerCase())
  )
    res.tzoffset = 0;
  const fields = Object.values(res).filter((v) => v !== undefined);
  if (fields.length === 0) return undefined;

  const year = res.year ?? now.getFullYear();
  const m = res.month ?? now.getMonth() + 1;
  let day = res.day ?? now.getDate();
  if (year < 1 || year > 9999 || m < 1 || m > 12) return undefined;
  if (res.day === undefined && day > daysIn(year, m)) day = daysIn(year, m);
  const [hour, minute, second, micro] = [
    res.hour ?? 0,
    res.minute ?? 0,
    res.second ?? 0,
    res.microsecond ?? 0,
  ];
  if (day < 1 || day > daysIn(year, m) || hour > 23 || minute > 59 || second > 59 || micro > 999999)
    return undefined;
  let date = new Date(Date.UTC(year, m - 1, day));
  date.setUTCFullYear(year);
  if (res.weekday !== undefined && !res.day) {
    const shift = (res.weekday - ((date.getUTCDay() + 6) % 7) + 7) % 7;
    date = new Date(date.getTime() + shift * 86400000);
  }
  let iso =
    `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}` +
    `T${pad(hour)}:${pad(minute)}:${pad(second)}`;
  if (micro) iso += `.${pad(micro, 6)}`;
  if (res.tzoffset !== undefined && (res.tzoffset !== 0 || res.tzname === 'UTC')) {
    const abs = Math.abs(res.tzoffset);
    iso += `${res.tzoffset < 0 ? '-' : '+'}${pad(Math.floor(abs / 3600))}:${pad(Math.floor((abs % 3600) / 60))}`;
  }
  return iso;
}
