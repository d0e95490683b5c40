// The text of endpoint-flags.ts, derived from the catalogue (the flags' and names' one home). Kept apart from the generated file so
// the worker's entry imports names only, not the catalogue's schemas (its bundle budget: the schemas load with the
// first call, worker/http/wire.ts).
import { catalogue, type EndpointName } from './catalogue.ts'

const names = (pick: (name: EndpointName) => boolean): Array<EndpointName> =>
  (Object.keys(catalogue) as Array<EndpointName>).filter(pick).sort()

const list = (items: ReadonlyArray<string>): string => items.map((n) => `  '${n}',\n`).join('')

export const endpointFlagsSource = (): string =>
  `// Generated from worker/protocol/catalogue.ts by scripts/endpoint-flags.ts; do not edit.
import type { EndpointName } from './catalogue.ts'

/** Every endpoint of the catalogue, by name (the command contract checks a call's name against these). */
export const ENDPOINT_NAMES: ReadonlyArray<EndpointName> = [
${list(names(() => true))}]

/** Endpoints safe to send again to a new worker when the old one died with the call in flight (the replay rule). */
export const REPEATABLE_ENDPOINTS: ReadonlyArray<EndpointName> = [
${list(names((n) => catalogue[n].repeatable))}]

/** Non-repeatable writes sent with an idempotency key: a tab sends such a call again, with its key, after a death. */
export const KEYED_ENDPOINTS: ReadonlyArray<EndpointName> = [
${list(names((n) => catalogue[n].idempotent === true))}]

/** Endpoints whose failure the tab does not toast. */
export const SILENT_ENDPOINTS: ReadonlyArray<EndpointName> = [
${list(names((n) => catalogue[n].silentFailure === true))}]
`
