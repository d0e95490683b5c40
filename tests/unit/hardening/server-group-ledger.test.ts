// Issue 41 finding 9: group control's ledger, upload tickets and dead uploads are purged after a documented time, and
// groupCommand is limited per user by the ledger rows it would add (RatePolicies.groupCommandUser), refused in Chinese;
// a re-send of phones a command already reached is answered from the ledger and not counted.
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { catalogue } from '../../../worker/protocol/catalogue.ts'
import type { GroupCommandResponse } from '../../../worker/protocol/group.ts'
import { GROUP_LEDGER_RETAIN_MS, purgeGroupLedger } from '../../../server/devices/group.ts'
import { devicesDb } from '../../../server/devices/tables.ts'
import { chunkRows } from '../../../server/files/phone-file-bytes.ts'
import { purgeUploads, UPLOAD_TICKET_RETAIN_MS } from '../../../server/files/purge.ts'
import { STALE_UPLOAD_MS } from '../../../server/files/phone-files.ts'
import { filesDb } from '../../../server/files/tables.ts'
import { RatePolicies, THROTTLED_STATUS } from '../../../server/security/throttle.ts'
import { api, loginToken, useTestServer } from '../server/helpers.ts'

const t = useTestServer()
const FLEET = Array.from({ length: 60 }, (_, i) => 890001 + i)

const command = (token: string, commandId: string, userCardIds: ReadonlyArray<number>) =>
  api<GroupCommandResponse>(t.base, 'POST', catalogue.groupCommand.path, { token, body: { commandId, action: 'text', text: '你好', userCardIds } })
const count = async (table: string): Promise<number> =>
  Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(t.server.db)).rows[0]!.n)

describe('group control volume', () => {
  it('refuses, in Chinese, a user past its phones per window; re-sends of reached phones still answer', async () => {
    const fleet = (await loginToken(t.base, '13600136000')).token
    const calls = RatePolicies.groupCommandUser.limit / FLEET.length
    const first = randomUUID()
    for (let i = 0; i < calls; i++) {
      const r = await command(fleet, i === 0 ? first : randomUUID(), FLEET)
      expect(r.body.status).toBe(0)
    }
    const rows = await count('group_command_results')
    const over = await command(fleet, randomUUID(), FLEET)
    expect(over.body.status).toBe(THROTTLED_STATUS)
    expect(over.body.msg).toMatch(/^群控操作过于频繁，请\d+(秒|分钟)后再试$/)
    // nothing stored for the refused command
    expect(await count('group_command_results')).toBe(rows)
    // the first command sent again: every phone answered from the ledger, nothing counted
    const again = await command(fleet, first, FLEET)
    expect(again.body.status).toBe(0)
    expect(again.body.data.results).toHaveLength(FLEET.length)
    // another user is not limited by this one
    const demo = (await loginToken(t.base, '13800138000')).token
    expect((await command(demo, randomUUID(), [880001])).body.status).toBe(0)
  })
})

describe('purges', () => {
  it('the ledger keeps commands GROUP_LEDGER_RETAIN_MS, then deletes them with their results', async () => {
    const db = devicesDb(t.server.db)
    const user = (await t.server.db.selectFrom('users').select('id').where('phone', '=', '13800138000').executeTakeFirstOrThrow()).id
    const [old, recent] = [randomUUID(), randomUUID()]
    for (const [id, age] of [[old, GROUP_LEDGER_RETAIN_MS + 60_000], [recent, GROUP_LEDGER_RETAIN_MS - 60_000]] as const) {
      const at = new Date(Date.now() - age)
      await sql`insert into group_commands (user_id, command_id, action, created_at) values (${user}, ${id}, 'reboot', ${at})`.execute(db)
      await sql`insert into group_command_results (user_id, command_id, user_card_id, disk_name, ok, status, msg, ms, created_at)
        values (${user}, ${id}, 880001, 'x', true, 0, '', 1, ${at})`.execute(db)
    }
    expect(await purgeGroupLedger(db)).toBeGreaterThanOrEqual(1)
    const left = async (id: string) => Number((await sql<{ n: string }>`select count(*) as n from group_command_results where command_id = ${id}`.execute(db)).rows[0]!.n)
    expect(await left(old)).toBe(0)
    expect(await left(recent)).toBe(1)
  })

  it('upload tickets go UPLOAD_TICKET_RETAIN_MS after their expiry, dead uploads after STALE_UPLOAD_MS', async () => {
    const db = filesDb(t.server.db)
    const user = (await t.server.db.selectFrom('users').select('id').where('phone', '=', '13800138000').executeTakeFirstOrThrow()).id
    const device = (await t.server.db.selectFrom('devices').select('id').where('user_card_id', '=', 880001).executeTakeFirstOrThrow()).id
    const now = Date.now()
    await db.insertInto('upload_tickets').values([
      { ticket: `old-${now}`, user_id: user, purpose: 'avatar', expires_at: new Date(now - UPLOAD_TICKET_RETAIN_MS - 60_000) },
      { ticket: `new-${now}`, user_id: user, purpose: 'avatar', expires_at: new Date(now - 60_000) },
    ]).execute()
    const dead = await db.insertInto('phone_files').values({
      device_id: device, user_id: user, name: 'dead.bin', size: 1, content_type: 'application/octet-stream', upload_key: `dead-${now}`,
      complete: false, created_at: new Date(now - STALE_UPLOAD_MS - 60_000),
    }).returning('id').executeTakeFirstOrThrow()
    expect(await purgeUploads(db, chunkRows(t.server.db))).toBeGreaterThanOrEqual(1)
    const tickets = (await db.selectFrom('upload_tickets').select('ticket').where('ticket', 'in', [`old-${now}`, `new-${now}`]).execute()).map((r) => r.ticket)
    expect(tickets).toEqual([`new-${now}`])
    expect(await db.selectFrom('phone_files').select('id').where('id', '=', dead.id).execute()).toHaveLength(0)
  })
})
