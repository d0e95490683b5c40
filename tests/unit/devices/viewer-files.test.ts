// The viewer's files sheet without React: the tab's check before a ticket, the upload rows' reducer and the runner
// that sends two files at a time and starts none after a cancel.
import { describe, expect, it } from 'vitest'
import { PHONE_FILE_MAX_BYTES } from '../../../worker/protocol/files.ts'
import { formatSize, phoneFileProblem, reduceUploads, rowOf, runLimited, totalsOf } from '../../../src/features/devices/files/phone-files.ts'

describe('viewer files', () => {
  it('refuses in Chinese, before any ticket, a file too big, empty or with too long a name', () => {
    expect(phoneFileProblem({ name: 'a.apk', size: PHONE_FILE_MAX_BYTES })).toBeNull()
    expect(phoneFileProblem({ name: 'a.bin', size: PHONE_FILE_MAX_BYTES + 1 })).toBe('单个文件不能超过50MB')
    expect(phoneFileProblem({ name: 'a.txt', size: 0 })).toBe('文件内容为空')
    expect(phoneFileProblem({ name: '长'.repeat(101), size: 1 })).toBe('文件名不能超过100个字符')
    expect(rowOf('k', { name: 'a.txt', size: 0 })).toMatchObject({ state: 'failed', msg: '文件内容为空' })
  })

  it('a row goes from waiting through its progress to 成功 or its reason, and a cancel leaves results alone', () => {
    let rows = reduceUploads([], { type: 'start', rows: [rowOf('a', { name: 'a', size: 1 }), rowOf('b', { name: 'b', size: 1 }), rowOf('c', { name: 'c', size: 1 })] })
    rows = reduceUploads(rows, { type: 'uploading', key: 'a' })
    rows = reduceUploads(rows, { type: 'progress', key: 'a', progress: 40 })
    expect(rows[0]).toMatchObject({ state: 'uploading', progress: 40 })
    rows = reduceUploads(rows, { type: 'done', key: 'a', installed: true })
    rows = reduceUploads(rows, { type: 'failed', key: 'b', msg: '云手机文件数量已达上限（200个）' })
    rows = reduceUploads(rows, { type: 'cancelAll' })
    expect(rows.map((r) => [r.state, r.msg])).toEqual([['done', '成功'], ['failed', '云手机文件数量已达上限（200个）'], ['cancelled', '已取消']])
    expect(rows[0]!.installed).toBe(true)
    // a late progress report does not reopen a settled row
    expect(reduceUploads(rows, { type: 'progress', key: 'a', progress: 10 })[0]!.progress).toBe(100)
    expect(totalsOf(rows)).toEqual({ total: 3, ok: 1, failed: 1, busy: false })
  })

  it('sends at most two at a time, in order, and starts none after a cancel', async () => {
    const controller = new AbortController()
    const started: number[] = []
    let running = 0
    let most = 0
    await runLimited([1, 2, 3, 4, 5], 2, async (n) => {
      started.push(n)
      most = Math.max(most, ++running)
      await new Promise((r) => setTimeout(r, 5))
      running--
      if (n === 3) controller.abort()
    }, controller.signal)
    expect(most).toBe(2)
    expect(started).toEqual([1, 2, 3, 4])
  })

  it('shows sizes for people', () => {
    expect([formatSize(12), formatSize(2048), formatSize(5 * 1024 * 1024)]).toEqual(['12 B', '2.0 KB', '5.0 MB'])
  })
})
