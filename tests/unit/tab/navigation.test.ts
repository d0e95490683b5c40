import { describe, expect, it } from 'vitest'
import { backAction } from '../../../src/router/back.ts'
import { channelCodeFrom, entryRedirect, resolveChannelCode, routeFromHash } from '../../../src/boot/entry-url.ts'
import { parseSearch, stringifySearch } from '../../../src/router/search.ts'

describe('back behaviour (§2)', () => {
  it('goes one page back when no stored path exists', () => {
    expect(backAction({ storedPath: null, previousPagePath: '/a', search: {} })).toEqual({ kind: 'history' })
  })

  it('goes one page back when only the stored path exists', () => {
    expect(backAction({ storedPath: '/pages/index/index', previousPagePath: null, search: {} })).toEqual({ kind: 'history' })
  })

  it('replaces with the stored path when both the path and the previous page path exist', () => {
    expect(backAction({ storedPath: '/package/setUp/setUp', previousPagePath: '/x', search: {} }))
      .toEqual({ kind: 'replace', to: '/package/setUp/setUp', search: {}, resetUpdateIndex: false })
  })

  it('resets the update index when updateIndex is in the query', () => {
    const action = backAction({ storedPath: '/pages/index/index', previousPagePath: '/x', search: { updateIndex: '2' } })
    expect(action).toMatchObject({ kind: 'replace', resetUpdateIndex: true })
  })

  it('keeps a query carried by the stored path and accepts paths without a leading slash', () => {
    expect(backAction({ storedPath: 'package/purchase/purchase?phoneType=P1', previousPagePath: '/x', search: {} }))
      .toEqual({ kind: 'replace', to: '/package/purchase/purchase', search: { phoneType: 'P1' }, resetUpdateIndex: false })
  })
})

describe('entry URL', () => {
  it('sends the index page to the web root hash route keeping the query', () => {
    expect(entryRedirect({ pathname: '/cloud/phone/web/index.html', search: '?channelCode=c1&a=2', hash: '' }))
      .toBe('/cloud/phone/web/#/?channelCode=c1&a=2')
  })

  it('sends a URL without a hash route to #/ keeping the query', () => {
    expect(entryRedirect({ pathname: '/cloud/phone/web/', search: '?x=1', hash: '' })).toBe('/cloud/phone/web/#/?x=1')
    expect(entryRedirect({ pathname: '/cloud/phone/web/', search: '', hash: '' })).toBe('/cloud/phone/web/#/')
  })

  it('leaves a hash route of the web root alone', () => {
    expect(entryRedirect({ pathname: '/cloud/phone/web/', search: '', hash: '#/pages/login/login?invitationUserName=a' })).toBeNull()
  })

  it('lands the home\'s spec path on #/ keeping its query, and leaves paths it only starts alike alone', () => {
    expect(entryRedirect({ pathname: '/cloud/phone/web/', search: '', hash: '#/pages/index/index' })).toBe('/cloud/phone/web/#/')
    expect(entryRedirect({ pathname: '/cloud/phone/web/', search: '?s=1', hash: '#/pages/index/index?channelCode=c1' }))
      .toBe('/cloud/phone/web/?s=1#/?channelCode=c1')
    expect(entryRedirect({ pathname: '/cloud/phone/web/', search: '', hash: '#/pages/index/indexes' })).toBeNull()
  })

  it('drops index.html but keeps an existing hash route', () => {
    expect(entryRedirect({ pathname: '/cloud/phone/web/index.html', search: '', hash: '#/pages/login/login' }))
      .toBe('/cloud/phone/web/#/pages/login/login')
  })

  it('reads channelCode from the real query or from the hash query', () => {
    expect(channelCodeFrom({ pathname: '/', search: '?channelCode=A', hash: '' })).toBe('A')
    expect(channelCodeFrom({ pathname: '/', search: '', hash: '#/?channelCode=B' })).toBe('B')
    expect(channelCodeFrom({ pathname: '/', search: '', hash: '#/pages/login/login' })).toBeNull()
  })

  it('keeps channelCode in this tab\'s session storage across a reload without it', () => {
    const store = new Map<string, string>()
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) }
    expect(resolveChannelCode({ pathname: '/', search: '?channelCode=C', hash: '' }, storage)).toBe('C')
    expect(resolveChannelCode({ pathname: '/', search: '', hash: '#/pages/index/index' }, storage)).toBe('C')
  })

  it('parses the start route from the hash', () => {
    expect(routeFromHash('#/package/purchase/purchase?phoneType=1')).toEqual({ path: '/package/purchase/purchase', search: { phoneType: '1' } })
    expect(routeFromHash('')).toEqual({ path: '/', search: {} })
  })
})

describe('search params', () => {
  it('keeps every value a string', () => {
    expect(parseSearch('?phoneType=1&androidVersion=10&flag=true')).toEqual({ phoneType: '1', androidVersion: '10', flag: 'true' })
  })

  it('writes values as plain query text and omits empty ones', () => {
    expect(stringifySearch({ a: '1', b: 2, c: undefined })).toBe('?a=1&b=2')
    expect(stringifySearch({})).toBe('')
  })
})
