// Writes bench/results/latest.{json,md,svg} from the parts' results.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { resultsDir } from './paths.ts'
import { failuresOf, type PartResult, type Table, type TargetCheck } from './result.ts'
import { barChart } from './svg.ts'

export interface RunReport {
  /** unique per run (or --run-id): lets CI check that this run wrote the results, not an earlier one. */
  readonly runId: string
  readonly startedAt: string
  readonly finishedAt: string
  readonly quick: boolean
  readonly environment: Record<string, unknown>
  readonly parts: ReadonlyArray<PartResult>
}

const cell = (v: string | number | boolean | null): string => (v === null ? '-' : String(v).replace(/\|/g, '\\|'))

const markdownTable = (t: Table): string =>
  [
    `**${t.title}**`, '',
    `| ${t.columns.join(' | ')} |`,
    `|${t.columns.map(() => '---').join('|')}|`,
    ...t.rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n')

const status = (p: PartResult): string => {
  const errors = p.errors?.length ?? 0
  const failures = p.failures?.length ?? 0
  const skipped = p.skipped?.length ?? 0
  if (errors + failures + skipped === 0) return 'ok'
  return `FAILED: ${[errors ? `${errors} errored` : '', skipped ? `${skipped} skipped for time` : '', failures ? `${failures} did not converge` : ''].filter(Boolean).join(', ')}`
}

const verdict = (t: TargetCheck): string => (t.hit === null ? 'not measured' : t.hit ? 'HIT' : 'MISS')

export const toMarkdown = (report: RunReport): string => {
  const targets = report.parts.flatMap((p) => p.targets ?? [])
  const failures = failuresOf(report.parts)
  const lines = [
    `# Benchmarks${report.quick ? ' (quick run)' : ''}`, '',
    `Run ${report.runId}. Started ${report.startedAt}, finished ${report.finishedAt}. ${Object.entries(report.environment).map(([k, v]) => `${k}: ${v}`).join('; ')}.`, '',
    '## Failures', '',
    ...(failures.length === 0 ? ['None: every part and every run in it ran (none skipped for time), and every flood, dispatch run, reattach and fan-out converged.'] : failures.map((f) => `- ${f}`)),
    '',
    '## Targets', '',
    '| target | goal | value | verdict |', '|---|---|---|---|',
    ...targets.map((t) => `| ${t.name} | ${t.target} | ${t.value === null ? '-' : `${t.value} ${t.unit}`} | ${verdict(t)} |`),
    '',
    '## Parts', '',
    '| part | status | product | seconds |', '|---|---|---|---|',
    ...report.parts.map((p) => `| ${p.title} | ${p.ok ? status(p) : `FAILED: ${cell(p.error ?? '')}`} | ${p.product ?? '-'} | ${(p.durationMs / 1000).toFixed(1)} |`),
    '',
  ]
  for (const p of report.parts) {
    lines.push(`## ${p.title}`, '')
    if (!p.ok) lines.push(`Failed: ${p.error}`, '')
    for (const t of p.tables ?? []) lines.push(markdownTable(t), '')
    for (const n of p.notes ?? []) lines.push(`- ${n}`)
    lines.push('')
  }
  return lines.join('\n')
}

/** The chart: dispatch p99 (store, React) per path and tab count, the headline comparison of issue 5. */
const toSvg = (report: RunReport): string => {
  const dispatch = report.parts.find((p) => p.id === 'dispatch')
  const scenarios = ((dispatch?.data ?? []) as Array<{ path: string; tabs: number; ok: boolean; pooled?: boolean; store?: { p50: number; p99: number }; commit?: { p99: number } }>)
    .filter((s) => s.pooled !== false)
  return barChart(
    `Dispatch latency per path and tab count${report.quick ? ' (quick run)' : ''}`,
    ['store p50', 'store p99', 'React commit p99'],
    scenarios.map((s) => ({
      label: `${s.path} x${s.tabs}${s.ok ? '' : ' (failed)'}`,
      values: s.ok ? [s.store!.p50, s.store!.p99, s.commit!.p99] : [null, null, null],
    })),
    'ms',
  )
}

export const writeReport = (report: RunReport): string[] => {
  mkdirSync(resultsDir, { recursive: true })
  const files = [join(resultsDir, 'latest.json'), join(resultsDir, 'latest.md'), join(resultsDir, 'latest.svg')]
  writeFileSync(files[0], `${JSON.stringify(report, null, 2)}\n`)
  writeFileSync(files[1], toMarkdown(report))
  writeFileSync(files[2], toSvg(report))
  return files
}
