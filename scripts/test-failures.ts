// The lines of a suite's output that name what failed (vitest's ×/FAIL/→ lines, Playwright's numbered failures, and
// the errors under them), so `npm test` can repeat them after the last suite: a CI log that keeps only its tail then
// still says which test of an earlier suite failed.
const FAILURE_LINE = [/^\s*[×✗✘]\s/, /^\s*→\s/, /^\s*FAIL\s/, /^\s*\d+\)\s+\S/, /\b\w*Error:\s/, /dependency optimized:/]
const RELOADED = 'Vite unexpectedly reloaded a test'
const MAX_LINES = 40

export const failureLines = (output: string): Array<string> => {
  const seen = new Set<string>()
  const kept: Array<string> = []
  for (const raw of output.split('\n')) {
    const line = raw.replace(/\x1b\[[0-9;]*m/g, '').trimEnd()
    if (!FAILURE_LINE.some((re) => re.test(line)) || seen.has(line.trim())) continue
    seen.add(line.trim())
    kept.push(line.length > 300 ? `${line.slice(0, 300)}…` : line)
    if (kept.length === MAX_LINES) break
  }
  return kept
}

/**
 * Vite reloaded a running test page: it found a dependency only mid-run (a page or module its scan did not reach;
 * optimizeDeps in vite.config.ts). The suite fails then even if every test passed, since which test the reload hits is
 * chance: caught on the run that brings it, not as a random failure later.
 */
export const reloadedTestPage = (output: string): boolean => output.includes(RELOADED)
