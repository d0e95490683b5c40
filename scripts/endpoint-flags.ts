// Writes worker/protocol/endpoint-flags.ts from the catalogue: the names of its repeatable and silent endpoints, which
// the worker tells every tab on attach. Run after adding or changing an endpoint: `npx tsx scripts/endpoint-flags.ts`
// (tests/unit/worker/endpoint-flags.test.ts fails while the file is stale).
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { endpointFlagsSource } from '../worker/protocol/endpoint-flags-source.ts'

const target = fileURLToPath(new URL('../worker/protocol/endpoint-flags.ts', import.meta.url))
writeFileSync(target, endpointFlagsSource())
console.log(`wrote ${target}`)
