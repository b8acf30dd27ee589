/**
 * The entry of a bench (`bench/run.ts` of a service or package): runs the named sub-benches of `benches` in
 * order, or all of them when `names` is empty (`pnpm --filter <package> bench [name...]`). A bench that throws
 * is reported and sets the exit code to 1; the others still run. A bench sets `process.exitCode` itself when
 * its figures show failed requests.
 */
export async function runBenches(
  benches: Record<string, () => Promise<void>>,
  names: readonly string[] = process.argv.slice(2),
): Promise<void> {
  const unknown = names.filter((name) => !Object.hasOwn(benches, name));
  if (unknown.length > 0) {
    console.error(
      `unknown bench ${unknown.join(', ')}; this package has: ${Object.keys(benches).join(', ')}`,
    );
    process.exitCode = 1;
    return;
  }
  for (const name of names.length > 0 ? names : Object.keys(benches)) {
    try {
      await benches[name]!();
    } catch (error) {
      console.error(`bench ${name} failed:`, error);
      process.exitCode = 1;
    }
  }
}
