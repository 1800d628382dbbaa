/**
 * A tool's argument schema that depends on the run (its causes), built once per distinct value
 * and kept for the last few: a tool set is made again in every life and turn, and each new schema
 * object would be turned into JSON Schema again (toolSpec caches by schema object).
 */
export function perRun<S>(build: (causes: readonly string[] | undefined) => S, keep = 8): (causes: readonly string[] | undefined) => S {
  const made = new Map<string, S>();
  return (causes) => {
    const key = causes === undefined ? '' : JSON.stringify(causes);
    let s = made.get(key);
    if (s === undefined) {
      s = build(causes);
      made.set(key, s);
      if (made.size > keep) made.delete(made.keys().next().value as string);
    }
    return s;
  };
}
