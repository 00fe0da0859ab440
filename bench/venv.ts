// A Python with one PyPI package, for the benches that run a peer in the same run (pyoxigraph,
// Morph-KGC): /tmp/labld-<name>venv, made with `python3 -m venv` + `pip install` when missing,
// as .ci/run makes the clients' venvs. An install that fails throws: a peer is never skipped
// silently.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** The venv's python, after making the venv and installing `pkg` (import name `module`) if needed. */
export function venvPython(name: string, pkg: string, module: string): string {
  const dir = `/tmp/labld-${name}venv`;
  const python = `${dir}/bin/python`;
  const has = () => {
    try {
      execFileSync(python, ['-c', `import ${module}`], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  if (existsSync(python) && has()) return python;
  console.log(`making ${dir} (pip install ${pkg})`);
  if (!existsSync(python)) execFileSync('python3', ['-m', 'venv', dir], { stdio: 'inherit' });
  execFileSync(`${dir}/bin/pip`, ['install', '-q', pkg], { stdio: 'inherit' });
  if (!has()) throw new Error(`${pkg} installed in ${dir} but \`import ${module}\` fails`);
  return python;
}
