// A visitor turned away from a protected screen returns there after signing in, through the §3 keys path and
// previousPagePath (stored by the login screen, cleared by the sign-in that follows them).
import { describe, expect, it } from 'vitest'
import { noteIntended, signedInDestination, storeIntended, takeIntended, type KeyStore } from '../../../src/router/intended.ts'

const memoryKeys = () => {
  const values = new Map<string, string>()
  const keys: KeyStore = {
    getLocal: (key) => Promise.resolve(values.get(key) ?? null),
    setLocal: (key, value) => {
      if (value === null) values.delete(key)
      else values.set(key, value)
      return Promise.resolve()
    },
  }
  return { keys, values }
}

describe('return after sign-in', () => {
  it('the noted route is stored as path with the home as previousPagePath, and the sign-in lands there once', async () => {
    const { keys, values } = memoryKeys()
    noteIntended('/package/couponNum/couponNum?status=2')
    await storeIntended(keys)
    expect(Object.fromEntries(values)).toEqual({ path: '/package/couponNum/couponNum?status=2', previousPagePath: '/pages/index/index' })
    expect(takeIntended()).toBeNull()
    expect(await signedInDestination(keys)).toEqual({ to: '/package/couponNum/couponNum', search: { status: '2' } })
    expect(values.size).toBe(0)
    expect(await signedInDestination(keys)).toEqual({ to: '/pages/index/index', search: {} })
  })

  it('without a noted route nothing is stored and a sign-in goes home', async () => {
    const { keys, values } = memoryKeys()
    takeIntended()
    await storeIntended(keys)
    expect(values.size).toBe(0)
    expect(await signedInDestination(keys)).toEqual({ to: '/pages/index/index', search: {} })
  })

  it('a stored path without previousPagePath is not followed (§2 needs both)', async () => {
    const { keys } = memoryKeys()
    await keys.setLocal('path', '/package/setUp/setUp')
    expect(await signedInDestination(keys)).toEqual({ to: '/pages/index/index', search: {} })
  })
})
