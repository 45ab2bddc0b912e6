/**
 * Compose variable interpolation (${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?message}, ${VAR?message},
 * $$), applied to every string of a parsed compose file, as compose does before it validates the file.
 */
export class MissingVariableError extends Error {}

const PATTERN = /\$(?:\$|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g;

export function interpolateString(text: string, env: Record<string, string | undefined>): string {
  return text.replace(
    PATTERN,
    (match, braced?: string, colon?: string, operator?: string, word?: string, bare?: string) => {
      if (match === '$$') return '$';
      const name = braced ?? bare;
      if (name === undefined) throw new Error(`cannot interpolate "${match}"`);
      const value = env[name];
      const unset = colon ? value === undefined || value === '' : value === undefined;
      if (operator === '-') return unset ? (word ?? '') : (value as string);
      if (operator === '?') {
        if (unset) throw new MissingVariableError(`${name}: ${word ?? 'required'}`);
        return value as string;
      }
      return value ?? '';
    },
  );
}

export function interpolate<T>(node: T, env: Record<string, string | undefined>): T {
  if (typeof node === 'string') return interpolateString(node, env) as T;
  if (Array.isArray(node)) return node.map((item: unknown) => interpolate(item, env)) as T;
  if (node && typeof node === 'object') {
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, interpolate(v, env)])) as T;
  }
  return node;
}
