// scripts/page-priority.ts: which processes are Chromium's renderers (PAGE_PRIORITY for scripts/lighthouse.ts), found
// in a /proc laid out in a temporary folder.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { newRenderers, pagePriorityMode, processKind, rendererThreads } from '../../../scripts/page-priority.ts'

const ZYGOTE = '/usr/lib/chromium/chromium\0--type=zygote\0--no-sandbox\0'
// a renderer renames itself into one string, its arguments joined by spaces
const RENDERER = '/usr/lib/chromium/chromium --type=renderer --lang=zh-CN --renderer-client-id=7\0'

describe('processKind', () => {
  it('tells a renderer from the zygote it was forked from, an extension and other programs', () => {
    expect(processKind(RENDERER)).toBe('renderer')
    expect(processKind('/usr/lib/chromium/chromium\0--type=renderer\0--lang=zh-CN\0')).toBe('renderer')
    expect(processKind(ZYGOTE)).toBe('unnamed')
    expect(processKind('')).toBe('unnamed')
    expect(processKind('/usr/lib/chromium/chromium --type=renderer --extension-process\0')).toBe('other')
    expect(processKind('/usr/lib/chromium/chromium --type=gpu-process\0')).toBe('other')
    expect(processKind('node\0/work/fake-chromium.js\0--type=renderer\0')).toBe('other')
  })
})

describe('newRenderers', () => {
  let proc = ''
  afterEach(() => rmSync(proc, { recursive: true, force: true }))
  const processes = (entries: Record<string, string>) => {
    for (const [pid, cmdline] of Object.entries(entries)) {
      mkdirSync(join(proc, pid, 'task', pid), { recursive: true })
      writeFileSync(join(proc, pid, 'cmdline'), cmdline)
    }
  }

  it('finds each renderer once, and a fork still named as the zygote once it has renamed itself', () => {
    proc = mkdtempSync(join(tmpdir(), 'page-priority-'))
    processes({ 100: RENDERER, 101: ZYGOTE, 102: 'node\0server/main.ts\0', 103: '/usr/lib/chromium/chromium --type=utility\0' })
    mkdirSync(join(proc, 'self'))
    const looked = new Set<string>()
    expect(newRenderers(proc, looked)).toEqual(['100'])
    expect(newRenderers(proc, looked)).toEqual([])
    writeFileSync(join(proc, '101', 'cmdline'), RENDERER)
    expect(newRenderers(proc, looked)).toEqual(['101'])
  })

  it('holds the main thread alone, or every thread with the main one ahead of the rest', () => {
    proc = mkdtempSync(join(tmpdir(), 'page-priority-'))
    processes({ 100: RENDERER })
    mkdirSync(join(proc, '100', 'task', '104'))
    expect(rendererThreads('main', proc, '100')).toEqual([[100, -20]])
    expect(new Map(rendererThreads('renderer', proc, '100'))).toEqual(new Map([[100, -20], [104, -10]]))
    expect(() => rendererThreads('renderer', proc, '999')).toThrow()
    expect(() => rendererThreads('main', proc, '999')).toThrow()
  })
})

describe('pagePriorityMode', () => {
  it('reads PAGE_PRIORITY, and nothing else as a mode', () => {
    expect(pagePriorityMode('main')).toBe('main')
    expect(pagePriorityMode('renderer')).toBe('renderer')
    expect(pagePriorityMode(undefined)).toBeNull()
    expect(pagePriorityMode('1')).toBeNull()
  })
})
