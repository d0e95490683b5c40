import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { endpointFlagsSource } from '../../../worker/protocol/endpoint-flags-source.ts'
import { REPEATABLE_ENDPOINTS, SILENT_ENDPOINTS } from '../../../worker/protocol/endpoint-flags.ts'
import { catalogue, type EndpointName } from '../../../worker/protocol/catalogue.ts'

describe('endpoint flags told to tabs on attach', () => {
  it('the generated file is the catalogue\'s flags (run `npx tsx scripts/endpoint-flags.ts` if this fails)', () => {
    const onDisk = readFileSync(new URL('../../../worker/protocol/endpoint-flags.ts', import.meta.url), 'utf8')
    expect(onDisk).toBe(endpointFlagsSource())
  })

  it('names exactly the repeatable and silent endpoints', () => {
    const names = Object.keys(catalogue) as Array<EndpointName>
    expect(new Set(REPEATABLE_ENDPOINTS)).toEqual(new Set(names.filter((n) => catalogue[n].repeatable)))
    expect(new Set(SILENT_ENDPOINTS)).toEqual(new Set(names.filter((n) => catalogue[n].silentFailure === true)))
    expect(REPEATABLE_ENDPOINTS).toContain('getDeviceList')
    expect(REPEATABLE_ENDPOINTS).not.toContain('rebootDevice')
  })
})
