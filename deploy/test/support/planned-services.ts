/**
 * values.yaml keeps the planned services (not registered in the launcher yet) as `#> ` lines under `services`,
 * so that enabling one is deleting that prefix. This does so for all of them, for tests that render the chart
 * as it will be.
 */
export function withPlannedServices(valuesText: string): string {
  return valuesText.replace(/^( *)#> ?/gm, '$1');
}

/** The `#> ` lines, to check that there are some. */
export function plannedLines(valuesText: string): string[] {
  return valuesText.split('\n').filter((line) => /^ *#>/.test(line));
}
