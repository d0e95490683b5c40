// The shape every part reports in: tables for latest.md, raw data for latest.json, and issue-5 targets as hit/miss.

export interface Table {
  readonly title: string
  readonly columns: ReadonlyArray<string>
  readonly rows: ReadonlyArray<ReadonlyArray<string | number | boolean | null>>
}

export interface TargetCheck {
  readonly name: string
  readonly target: string
  readonly value: number | null
  readonly unit: string
  /** null when the value could not be measured in this run. */
  readonly hit: boolean | null
}

export interface PartOutput {
  readonly tables: Table[]
  readonly targets?: TargetCheck[]
  readonly notes?: string[]
  /** which paths of this part ran against the real product code (vs bench stand-ins). */
  readonly product?: 'real' | 'missing' | 'partial'
  /** what did not converge or came out wrong (a tab's counter not exact, a reattach that did not settle). */
  readonly failures?: string[]
  /** runs of the part that errored (a tab that did not open, a login that failed); skipped runs are not errors. */
  readonly errors?: string[]
  /** runs of the part not started because its time budget ran out (BenchContext.skipped): they fail the bench too. */
  readonly skipped?: string[]
  readonly data?: unknown
}

export interface PartResult extends Partial<PartOutput> {
  readonly id: string
  readonly title: string
  readonly ok: boolean
  readonly error?: string
  readonly durationMs: number
}

export const check = (name: string, target: string, value: number | null | undefined, unit: string, pass: (v: number) => boolean): TargetCheck => {
  const v = value === undefined || value === null || !Number.isFinite(value) ? null : value
  return { name, target, value: v, unit, hit: v === null ? null : pass(v) }
}

/**
 * Whether the run failed: a part errored, had a run error or a run skipped for time, or (unless convergence failures
 * are only reported) a part listed a convergence failure, such as a fan-out that lost messages. The bench exits 1 then.
 */
export const runFailed = (parts: ReadonlyArray<PartResult>, convergenceReportOnly: boolean): boolean =>
  parts.some((p) => !p.ok || (p.errors?.length ?? 0) > 0 || (p.skipped?.length ?? 0) > 0 || (!convergenceReportOnly && (p.failures?.length ?? 0) > 0))

/** What the report lists under Failures: errored parts, run errors, skipped runs and convergence failures. */
export const failuresOf = (parts: ReadonlyArray<PartResult>): string[] =>
  parts.flatMap((p) => (p.ok
    ? [...(p.errors ?? []), ...(p.skipped ?? []).map((s) => `skipped (time budget): ${p.title}: ${s}`), ...(p.failures ?? [])]
    : [`part ${p.title} errored: ${p.error}`]))
