/** True when `e` is a Node system error with one of the given codes (e.g. 'ENOENT'). */
export function isErrno(e: unknown, ...codes: string[]): e is NodeJS.ErrnoException {
  return typeof e === 'object' && e !== null && codes.includes((e as NodeJS.ErrnoException).code ?? '');
}
