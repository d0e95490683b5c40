// Issue 11 finding 12: only `^[\w-]{1,64}$` is taken from a link as the channelCode header.
import { describe, expect, it } from 'vitest'
import { validChannelCode } from '../../../worker/protocol/channel-code.ts'
import { resolveChannelCode } from '../../../src/boot/entry-url.ts'

const memory = () => {
  const items = new Map<string, string>()
  return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v) }
}

describe('channelCode', () => {
  it('accepts letters, digits, _ and - up to 64 characters', () => {
    expect(validChannelCode('spring_2026-A')).toBe('spring_2026-A')
    expect(validChannelCode('x'.repeat(64))).toBe('x'.repeat(64))
  })

  it('refuses CR/LF, non-Latin-1 text, spaces, empty and over-long codes', () => {
    for (const bad of ['a\r\nX-Evil: 1', '渠道', 'a b', '', 'x'.repeat(65), 'a;b', null, undefined]) expect(validChannelCode(bad)).toBeNull()
  })

  it('a link with a bad code keeps none, and a bad kept value is not used', () => {
    const storage = memory()
    expect(resolveChannelCode({ pathname: '/', search: '?channelCode=%E6%B8%A0%0D%0A', hash: '#/' }, storage)).toBeNull()
    expect(resolveChannelCode({ pathname: '/', search: '', hash: '#/?channelCode=good-1' }, storage)).toBe('good-1')
    storage.setItem('channelCode', 'bad\nvalue')
    expect(resolveChannelCode({ pathname: '/', search: '', hash: '#/' }, storage)).toBeNull()
  })
})
