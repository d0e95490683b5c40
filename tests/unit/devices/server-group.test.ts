// Group control's ledger on the server (issue 23, server/devices/group.ts): a command applied once per (command id,
// phone) however often it is sent, a result per phone (ok, or the refusal's status and Chinese reason, and the time
// taken), every phone authorised for the caller, and the request itself validated.
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalogue as c } from '../../../worker/protocol/catalogue.ts'
import { BUSY_MS, startDeviceServer, type DeviceTestServer } from './harness.ts'

let srv: DeviceTestServer
beforeAll(async () => {
  srv = await startDeviceServer()
}, 60_000)
afterAll(() => srv?.close())

const deviceId = async (userCardId: number): Promise<number> =>
  (await srv.db.selectFrom('devices').select('id').where('user_card_id', '=', userCardId).executeTakeFirstOrThrow()).id

const busySince = async (userCardId: number): Promise<number | null> => {
  const id = await deviceId(userCardId)
  const { rows } = await sql<{ busy_since: Date | null }>`select busy_since from device_runtime where device_id = ${id}`.execute(srv.db)
  return rows[0]?.busy_since ? new Date(rows[0].busy_since).getTime() : null
}

const ledgerRows = async (commandId: string): Promise<number> =>
  Number((await sql<{ n: string }>`select count(*) as n from group_command_results where command_id = ${commandId}`.execute(srv.db)).rows[0]!.n)

/** past every busy window the previous test opened */
const settle = () => srv.advance(BUSY_MS + 1)

describe('a group command, per phone', () => {
  it('answers each phone: ok for the owner’s and the authorised phone, the reason for an expired, unknown or someone else’s', async () => {
    settle()
    const commandId = randomUUID()
    const res = await srv.call(srv.tokens.demo, c.groupCommand, { commandId, action: 'reboot', userCardIds: [880001, 880004, 880003, 999999, 880006] })
    expect(res.status).toBe(0)
    expect(res.data.commandId).toBe(commandId)
    const byId = new Map((res.data.results as Array<{ userCardId: number }>).map((r) => [r.userCardId, r]))
    expect(byId.get(880001)).toMatchObject({ ok: true, status: 0, diskName: '云手机-01', msg: '操作成功' })
    expect(byId.get(880004)).toMatchObject({ ok: true, status: 0, diskName: '伙伴的云手机' })
    expect(byId.get(880003)).toMatchObject({ ok: false, status: 1005, msg: '云手机已过期，请续费后使用' })
    // another user's phone and a missing one: the same refusal, and no name given away
    expect(byId.get(999999)).toMatchObject({ ok: false, status: 1004, msg: '云手机不存在或无权操作', diskName: '999999' })
    expect(byId.get(880006)).toMatchObject({ ok: false, status: 1004, msg: '云手机不存在或无权操作', diskName: '880006' })
    for (const r of res.data.results) expect(r.ms).toBeGreaterThanOrEqual(0)
  })

  it('refuses a busy phone per phone with the reason, the others still done', async () => {
    settle()
    await srv.call(srv.tokens.demo, c.rebootDevice, { userCardId: 880002 })
    const res = await srv.call(srv.tokens.demo, c.groupCommand, { commandId: randomUUID(), action: 'repair', userCardIds: [880002, 880001] })
    expect(res.data.results).toEqual([
      expect.objectContaining({ userCardId: 880002, ok: false, status: 1201, msg: '云手机正在重启中，请稍后再试' }),
      expect.objectContaining({ userCardId: 880001, ok: true }),
    ])
  })

  it('keeps the owner’s rule: an authorised user cannot reset, per phone', async () => {
    settle()
    const res = await srv.call(srv.tokens.demo, c.groupCommand, { commandId: randomUUID(), action: 'reset', userCardIds: [880004, 880005] })
    expect(res.data.results).toEqual([
      expect.objectContaining({ userCardId: 880004, ok: false, status: 1003, msg: '授权给您的云手机不能恢复出厂设置' }),
      expect.objectContaining({ userCardId: 880005, ok: true }),
    ])
  })
})

describe('exactly once per (command id, phone)', () => {
  it('answers a re-send from the ledger without applying it again', async () => {
    settle()
    const commandId = randomUUID()
    const body = { commandId, action: 'repair' as const, userCardIds: [880001, 880002] }
    const first = await srv.call(srv.tokens.demo, c.groupCommand, body)
    expect(first.data.results.every((r: { ok: boolean }) => r.ok)).toBe(true)
    const since = await busySince(880001)
    const pushes = srv.pushes.length
    srv.advance(1_000)
    const again = await srv.call(srv.tokens.demo, c.groupCommand, body)
    // the same answers (a re-sent repair would have found the phone busy and failed)
    expect(again.data).toEqual(first.data)
    expect(await busySince(880001)).toBe(since)
    expect(srv.pushes.length).toBe(pushes)
    expect(await ledgerRows(commandId)).toBe(2)
  })

  it('applies only the phones a re-send adds', async () => {
    settle()
    const commandId = randomUUID()
    await srv.call(srv.tokens.demo, c.groupCommand, { commandId, action: 'reboot', userCardIds: [880001] })
    const since = await busySince(880001)
    srv.advance(10)
    const res = await srv.call(srv.tokens.demo, c.groupCommand, { commandId, action: 'reboot', userCardIds: [880001, 880002] })
    expect(res.data.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, true])
    expect(await busySince(880001)).toBe(since)
    expect(await busySince(880002)).toBeGreaterThan(since!)
  })

  it('applies a command sent twice at once to each phone once', async () => {
    settle()
    const body = { commandId: randomUUID(), action: 'repair' as const, userCardIds: [880001, 880002, 880005] }
    const before = srv.pushes.filter((p) => p.message.type === 'changeCard').length
    const [a, b] = await Promise.all([srv.call(srv.tokens.demo, c.groupCommand, body), srv.call(srv.tokens.demo, c.groupCommand, body)])
    expect(a.data).toEqual(b.data)
    expect(a.data.results.every((r: { ok: boolean }) => r.ok)).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 50))
    // repair pushes changeCard to the owner and the grantees of each phone: once per phone (880005 has a grantee)
    expect(srv.pushes.filter((p) => p.message.type === 'changeCard').length - before).toBe(4)
  })

  it('refuses the same id for another action or text', async () => {
    settle()
    const commandId = randomUUID()
    await srv.call(srv.tokens.demo, c.groupCommand, { commandId, action: 'text', text: '你好', userCardIds: [880001] })
    const other = await srv.call(srv.tokens.demo, c.groupCommand, { commandId, action: 'text', text: '再见', userCardIds: [880001] })
    expect(other).toMatchObject({ status: 1001, msg: '命令编号已被另一操作使用，请重新操作', data: null })
  })

  it('keeps each user’s commands apart: the same id from another user is that user’s own command', async () => {
    settle()
    const commandId = randomUUID()
    const mine = await srv.call(srv.tokens.demo, c.groupCommand, { commandId, action: 'reboot', userCardIds: [880004] })
    expect(mine.data.results[0]).toMatchObject({ ok: true })
    settle()
    const theirs = await srv.call(srv.tokens.partner, c.groupCommand, { commandId, action: 'reboot', userCardIds: [880004, 880001] })
    expect(theirs.data.results).toEqual([
      expect.objectContaining({ userCardId: 880004, ok: true }),
      expect.objectContaining({ userCardId: 880001, ok: false, status: 1004 }),
    ])
  })
})

describe('text, clipboard and files', () => {
  it('puts the text on each phone’s clipboard (and types it where a field has focus)', async () => {
    settle()
    const res = await srv.call(srv.tokens.demo, c.groupCommand, { commandId: randomUUID(), action: 'clipboard', text: '群控剪贴板', userCardIds: [880001, 880005] })
    expect(res.data.results.every((r: { ok: boolean }) => r.ok)).toBe(true)
    expect(srv.stream.phoneState(await deviceId(880001))?.clipboard).toBe('群控剪贴板')
    expect(srv.stream.phoneState(await deviceId(880005))?.clipboard).toBe('群控剪贴板')
  })

  it('copies a file the caller uploaded to one phone onto the others, once', async () => {
    settle()
    const source = await deviceId(880001)
    const demo = await srv.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()
    const { rows } = await sql<{ id: number }>`insert into phone_files (device_id, user_id, name, size, content_type, upload_key, complete)
      values (${source}, ${demo.id}, 'tool.apk', 3, 'application/vnd.android.package-archive', ${randomUUID()}, true) returning id`.execute(srv.db)
    const fileId = rows[0]!.id
    await sql`insert into phone_file_chunks (file_id, seq, bytes) values (${fileId}, 0, ${Buffer.from('abc')})`.execute(srv.db)
    const body = { commandId: randomUUID(), action: 'file' as const, fileId, userCardIds: [880001, 880002] }
    const res = await srv.call(srv.tokens.demo, c.groupCommand, body)
    expect(res.data.results.every((r: { ok: boolean }) => r.ok)).toBe(true)
    await srv.call(srv.tokens.demo, c.groupCommand, body)
    const copies = await sql<{ n: string }>`select count(*) as n from phone_files where device_id = ${await deviceId(880002)} and name = 'tool.apk'`.execute(srv.db)
    expect(Number(copies.rows[0]!.n)).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(srv.stream.phoneState(await deviceId(880002))?.apps.some((a) => a.name === 'tool')).toBe(true)
    // someone else's file is not the caller's to copy
    const theirs = await srv.call(srv.tokens.partner, c.groupCommand, { ...body, commandId: randomUUID(), userCardIds: [880004] })
    expect(theirs).toMatchObject({ status: 1004, msg: '文件不存在或无权使用' })
  })
})

describe('the request', () => {
  it('refuses more than the account maximum with the reason', async () => {
    const ids = Array.from({ length: 61 }, (_, i) => 900000 + i)
    const res = await srv.call(srv.tokens.demo, c.groupCommand, { commandId: randomUUID(), action: 'reboot', userCardIds: ids })
    expect(res).toMatchObject({ status: 1203, msg: '一次最多操作60台云手机' })
  })

  it('refuses a malformed command id, an empty text and an unknown action without a stack trace', async () => {
    const bad = await srv.call(srv.tokens.demo, c.groupCommand, { commandId: 'not-a-uuid', action: 'reboot', userCardIds: [880001] })
    expect(bad.status).toBe(1001)
    expect(JSON.stringify(bad)).not.toMatch(/at |\.ts:/)
    const empty = await srv.call(srv.tokens.demo, c.groupCommand, { commandId: randomUUID(), action: 'text', text: '', userCardIds: [880001] })
    expect(empty).toMatchObject({ status: 1001, msg: '请输入要发送的文字' })
    const unknown = await srv.call(srv.tokens.demo, c.groupCommand, { commandId: randomUUID(), action: 'format' as never, userCardIds: [880001] })
    expect(unknown.status).toBe(1001)
    expect(JSON.stringify(unknown)).not.toMatch(/at |\.ts:/)
  })

  it('requires a login', async () => {
    const res = await fetch(`${srv.url}${c.groupCommand.path}`, { method: 'POST', body: JSON.stringify({ commandId: randomUUID(), action: 'reboot', userCardIds: [880001] }) })
    expect(res.status).toBe(401)
  })
})
