// Environment variables a test sets for the labld it starts, put back when it is done.

/** Sets (or, with undefined, removes) variables; returns the function that restores them. */
export function setEnv(vars: Record<string, string | undefined>): () => void {
  const saved = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  apply(vars);
  return () => apply(saved);
}

/** The guarded fetch may reach loopback, where the tests' file servers listen. */
export function allowLoopback(): () => void {
  return setEnv({ LABLD_FETCH_ALLOW: '127.0.0.0/8' });
}
