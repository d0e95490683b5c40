// Group control's ledger (群控, issue 23): one command (a client-made UUID) applied to each chosen phone at most once.
//
// Each (caller, command id, phone) is one row of group_command_results (migration 130_group_commands). A phone's
// application runs in one transaction: insert the row (a row already there means the command reached this phone
// before: its stored answer is returned and nothing is applied), apply the operation through the same handlers as the
// single-phone routes (reboot, reset, repair: their access, expiry, busy and owner rules), store the outcome, commit.
// What the operation does outside the database (closing the phone's stream channels, pushes, the simulated phone's
// text, clipboard and files) is held until the commit, so a rolled-back application leaves no trace and a committed
// one is never repeated. A command re-sent after a killed worker, a dropped connection or a server restart therefore
// answers every phone, applying only those it never reached.
//
// Issue 41 finding 9: the ledger is kept GROUP_LEDGER_RETAIN_MS (purged every GROUP_PURGE_MS, as sessions and card
// tokens are), and each user's commands are limited by volume: every phone a command reaches for the first time (a new
// ledger row) counts against RatePolicies.groupCommandUser; a re-send of phones already reached is free.
import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import { MAX_DEVICES_PER_ACCOUNT } from '../../worker/protocol/constants.ts'
import { isApk } from '../../worker/protocol/files.ts'
import { checkPhoneFileQuota, lockPhoneFileQuota } from '../files/phone-file-quota.ts'
import type { GroupCommandRequest, GroupCommandResponse, GroupPhoneResult } from '../../worker/protocol/group.ts'
import type { AuthUser, PushHub } from '../context.ts'
import { DomainError, Status } from '../http/errors.ts'
import { rateKey, type RateLimit } from '../security/throttle.ts'
import { texts } from '../security/texts.ts'
import { accessDevice, requireNotExpired, usableDeviceNames } from './access.ts'
import { requireNotBusy } from './busy.ts'
import { DeviceMsg, DeviceStatus, deviceError } from './errors.ts'
import { reboot, repair, reset } from './operations.ts'
import type { DeviceServices } from './services.ts'
import type { StreamServer } from './sim/stream-server.ts'
import type { DevicesDb } from './tables.ts'

export const GroupMsg = {
  ok: '操作成功',
  noText: '请输入要发送的文字',
  noFile: '请选择要上传的文件',
  fileMissing: '文件不存在或无权使用',
  idReused: '命令编号已被另一操作使用，请重新操作',
  tooMany: `一次最多操作${MAX_DEVICES_PER_ACCOUNT}台云手机`,
} as const

/** How long the ledger answers a re-sent command (a core re-sends what a killed worker or a restart left unanswered). */
export const GROUP_LEDGER_RETAIN_MS = 7 * 24 * 60 * 60_000
/** How often commands past GROUP_LEDGER_RETAIN_MS are deleted (with their results). */
export const GROUP_PURGE_MS = 10 * 60_000

/** Deletes the commands (their results go with them: on delete cascade) older than GROUP_LEDGER_RETAIN_MS; how many. */
export const purgeGroupLedger = async (db: DevicesDb, now = Date.now()): Promise<number> => {
  const before = new Date(now - GROUP_LEDGER_RETAIN_MS)
  const { rows } = await sql<{ command_id: string }>`delete from group_commands where created_at <= ${before} returning command_id`.execute(db)
  return rows.length
}

/** Of `ids`, how many this command has not reached yet: each would be a new ledger row. */
const unreached = async (db: DevicesDb, userId: number, commandId: string, ids: ReadonlyArray<number>): Promise<number> => {
  const { rows } = await sql<{ n: string }>`select count(*) as n from group_command_results
    where user_id = ${userId} and command_id = ${commandId} and user_card_id in (${sql.join([...ids])})`.execute(db)
  return ids.length - Number(rows[0]?.n ?? 0)
}

/** The command as stored with its first request: a re-send must name the same action and payload. */
interface CommandHead {
  readonly action: string
  readonly text: string | null
  readonly file_id: number | null
}

interface SourceFile {
  readonly id: number
  readonly device_id: number
  readonly name: string
  readonly size: number
  readonly content_type: string
}

/**
 * The services an operation sees inside a phone's transaction: the transaction as its database, and the stream and
 * push hub whose calls wait in `after` until the commit.
 */
const deferredServices = (s: DeviceServices, trx: DevicesDb, after: Array<() => void>): DeviceServices => {
  const later = (f: () => unknown) => void after.push(() => void Promise.resolve().then(f).catch(() => undefined))
  const hub: PushHub = {
    send: (to, message) => (later(() => s.hub.send(to, message)), Promise.resolve(0)),
    disconnect: (to, code) => (later(() => s.hub.disconnect(to, code)), Promise.resolve(0)),
    closeTokens: (tokens, lastFrame) => (later(() => s.hub.closeTokens(tokens, lastFrame)), Promise.resolve(0)),
    stats: () => s.hub.stats(),
    liveCount: () => s.hub.liveCount(),
  }
  const sim: StreamServer = {
    handleUpgrade: (request, socket, head) => s.sim.handleUpgrade(request, socket, head),
    kick: (deviceId, reason, userId) => later(() => s.sim.kick(deviceId, reason, userId)),
    endSessions: (digests) => later(() => s.sim.endSessions(digests)),
    resetPhone: (deviceId) => later(() => s.sim.resetPhone(deviceId)),
    installApp: (deviceId, name) => later(() => s.sim.installApp(deviceId, name)),
    addFile: (deviceId, name, size) => later(() => s.sim.addFile(deviceId, name, size)),
    typeText: (deviceId, text, paste) => later(() => s.sim.typeText(deviceId, text, paste)),
    viewerCount: (deviceId) => s.sim.viewerCount(deviceId),
    close: () => s.sim.close(),
  }
  // bytes of wiped files go once the wipe commits
  const files = { ...s.files, remove: (ids: ReadonlyArray<number>) => (later(() => s.files.remove(ids)), Promise.resolve()) }
  return { db: trx, clock: s.clock, hub, sim, files }
}

/** A phone the caller may use now (owner or grantee), not expired, not restarting. */
const usable = async (s: DeviceServices, user: AuthUser, userCardId: number) => {
  const { device } = await accessDevice(s.db, user.id, userCardId)
  requireNotExpired(device, s.clock)
  await requireNotBusy(s.db, device.id, s.clock)
  return device
}

const copyFile = async (s: DeviceServices, user: AuthUser, userCardId: number, source: SourceFile): Promise<void> => {
  const device = await usable(s, user, userCardId)
  // the phone it was uploaded to has it already
  if (device.id === source.device_id) return
  await lockPhoneFileQuota(s.db, device.id)
  await checkPhoneFileQuota(s.db, device.id, source.size)
  const key = randomBytes(24).toString('base64url')
  const inserted = await sql<{ id: number }>`
    insert into phone_files (device_id, user_id, name, size, content_type, upload_key, complete)
    values (${device.id}, ${user.id}, ${source.name}, ${source.size}, ${source.content_type}, ${key}, true) returning id`.execute(s.db)
  await s.files.copy(source.id, inserted.rows[0]!.id, s.db)
  s.sim.addFile(device.id, source.name, source.size)
  if (isApk(source.name)) s.sim.installApp(device.id, source.name)
}

const operation = (request: GroupCommandRequest, source: SourceFile | null) =>
  async (s: DeviceServices, user: AuthUser, userCardId: number): Promise<void> => {
    switch (request.action) {
      case 'reboot':
        return void (await reboot(s, user, userCardId))
      case 'reset':
        return void (await reset(s, user, userCardId))
      case 'repair':
        return void (await repair(s, user, userCardId))
      case 'text':
      case 'clipboard': {
        const device = await usable(s, user, userCardId)
        // text is typed as scrcpy clients type any text: through the clipboard and a paste (Chinese included)
        s.sim.typeText(device.id, request.text ?? '', request.action === 'text')
        return
      }
      case 'file':
        return copyFile(s, user, userCardId, source!)
    }
  }

/** The stored head of the command, or a refusal when the id was used for something else. */
const commandHead = async (db: DevicesDb, userId: number, request: GroupCommandRequest): Promise<void> => {
  const text = request.action === 'text' || request.action === 'clipboard' ? request.text ?? '' : null
  const fileId = request.action === 'file' ? request.fileId ?? null : null
  await sql`insert into group_commands (user_id, command_id, action, text, file_id)
    values (${userId}, ${request.commandId}, ${request.action}, ${text}, ${fileId}) on conflict do nothing`.execute(db)
  const { rows } = await sql<CommandHead>`select action, text, file_id from group_commands
    where user_id = ${userId} and command_id = ${request.commandId}`.execute(db)
  const head = rows[0]
  if (!head || head.action !== request.action || head.text !== text || head.file_id !== fileId) {
    throw new DomainError(Status.invalidPayload, GroupMsg.idReused)
  }
}

interface StoredRow {
  readonly user_card_id: number
  readonly disk_name: string
  readonly ok: boolean
  readonly status: number
  readonly msg: string
  readonly ms: number
}

const toResult = (r: StoredRow): GroupPhoneResult =>
  ({ userCardId: r.user_card_id, diskName: r.disk_name, ok: r.ok, status: r.status, msg: r.msg, ms: r.ms })

/** Applies the command to one phone unless it already was; answers the phone's (stored or new) outcome. */
const applyOnce = async (
  s: DeviceServices, user: AuthUser, request: GroupCommandRequest, userCardId: number, diskName: string,
  op: (s: DeviceServices, user: AuthUser, userCardId: number) => Promise<void>,
): Promise<GroupPhoneResult> => {
  const started = performance.now()
  const after: Array<() => void> = []
  const result = await s.db.transaction().execute(async (trx) => {
    const claimed = await sql<{ user_card_id: number }>`
      insert into group_command_results (user_id, command_id, user_card_id, disk_name, ok, status, msg, ms)
      values (${user.id}, ${request.commandId}, ${userCardId}, ${diskName}, false, -1, '', 0)
      on conflict do nothing returning user_card_id`.execute(trx)
    if (claimed.rows.length === 0) {
      const { rows } = await sql<StoredRow>`select user_card_id, disk_name, ok, status, msg, ms from group_command_results
        where user_id = ${user.id} and command_id = ${request.commandId} and user_card_id = ${userCardId}`.execute(trx)
      return toResult(rows[0]!)
    }
    let outcome: { ok: boolean; status: number; msg: string }
    try {
      await op(deferredServices(s, trx, after), user, userCardId)
      outcome = { ok: true, status: Status.ok, msg: GroupMsg.ok }
    } catch (error) {
      if (!(error instanceof DomainError)) throw error
      after.length = 0
      outcome = { ok: false, status: error.status, msg: error.msg }
    }
    const ms = Math.max(0, Math.round(performance.now() - started))
    await sql`update group_command_results set ok = ${outcome.ok}, status = ${outcome.status}, msg = ${outcome.msg}, ms = ${ms}
      where user_id = ${user.id} and command_id = ${request.commandId} and user_card_id = ${userCardId}`.execute(trx)
    return { userCardId, diskName, ...outcome, ms }
  })
  for (const f of after) f()
  return result
}

export const groupCommand = async (
  s: DeviceServices, user: AuthUser, request: GroupCommandRequest, rate: RateLimit,
): Promise<GroupCommandResponse> => {
  const ids = [...new Set(request.userCardIds)]
  if (ids.length === 0) throw deviceError(DeviceStatus.invalidPhone, DeviceMsg.noDevicesChosen)
  if (ids.length > MAX_DEVICES_PER_ACCOUNT) throw deviceError(DeviceStatus.limit, GroupMsg.tooMany)
  if ((request.action === 'text' || request.action === 'clipboard') && (request.text ?? '') === '') {
    throw new DomainError(Status.invalidPayload, GroupMsg.noText)
  }
  let source: SourceFile | null = null
  if (request.action === 'file') {
    if (request.fileId === undefined) throw new DomainError(Status.invalidPayload, GroupMsg.noFile)
    const { rows } = await sql<SourceFile & { user_card_id: number }>`select f.id, f.device_id, f.name, f.size, f.content_type, d.user_card_id
      from phone_files f join devices d on d.id = f.device_id
      where f.id = ${request.fileId} and f.user_id = ${user.id} and f.complete`.execute(s.db)
    const row = rows[0]
    // the caller's upload, on a phone the caller may still use (a former grantee's uploads stay with the phone)
    const stillTheirs = row ? await accessDevice(s.db, user.id, row.user_card_id).then(() => true, () => false) : false
    if (!row || !stillTheirs) throw new DomainError(Status.notFound, GroupMsg.fileMissing)
    source = row
  }
  const fresh = await unreached(s.db, user.id, request.commandId, ids)
  if (fresh > 0) await rate.take([rateKey('groupCommandUser', user.id)], fresh, texts.groupThrottled)
  await commandHead(s.db, user.id, request)
  // only the caller's phones (owned or authorised to it) are named; another's and a missing one look the same
  const names = await usableDeviceNames(s.db, user.id, ids)
  const op = operation(request, source)
  const results: GroupPhoneResult[] = []
  for (const userCardId of ids) results.push(await applyOnce(s, user, request, userCardId, names.get(userCardId) ?? String(userCardId), op))
  return { commandId: request.commandId, results }
}
