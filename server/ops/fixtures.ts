// Operator endpoint POST /__ops/fixture: a fresh "world" of the demo accounts (same profiles as the seed: devices,
// authorisations, coupons, star coins, a personal notice) under new phone numbers, plus unused activation codes and
// unregistered phones. Each end-to-end file asks for its own world, so files pass alone and in any order.
// Served behind the /__ops/* guard (loopback and the operator token) registered in routes.ts.
import { randomBytes, randomInt } from 'node:crypto'
import type { Kysely } from 'kysely'
import { ActivationCodeType } from '../../worker/protocol/account.ts'
import { envelope } from '../../worker/protocol/envelope.ts'
import { seedAccountDemoData } from '../account/seed.ts'
import type { App } from '../context.ts'
import { hashPasswordMd5, md5Hex } from '../crypto/password.ts'
import type { Database } from '../db/schema.ts'
import { DEMO_PASSWORD, demoDevices, demoUsers, fleetDevices } from '../db/seed.ts'
import { seedDeviceDemoData } from '../devices/seed.ts'
import { nextUserCardIds } from '../db/row-locks.ts'
import { accountDb } from '../account/tables.ts'
import { demoNotices } from '../messages/seed.ts'
import { messagesDb } from '../messages/tables.ts'

type Profile = keyof typeof demoUsers

export interface FixtureAccount {
  readonly phone: string
  readonly password: string
  readonly username: string
  readonly nickName: string
}

export interface FixtureWorld {
  readonly accounts: Readonly<Record<Profile, FixtureAccount>>
  /** userCardId of each demo-profile device, by its disk name (云手机-01 … 会员云手机). */
  readonly cards: Readonly<Record<string, number>>
  /** unused activation codes: a 5-yuan coupon code and a 7-day device code. */
  readonly codes: { readonly coupon: string; readonly device: string }
  /** valid phone numbers no account uses (registration, the forgotten-password refusal). */
  readonly unregisteredPhones: ReadonlyArray<string>
}

const DAY = 86_400_000
const MINUTE = 60_000
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'

const phoneTaken = async (db: Kysely<Database>, phone: string) =>
  (await db.selectFrom('users').select('id').where('phone', '=', phone).executeTakeFirst()) !== undefined

/** A valid mainland mobile number (1[3-9]…) that no account has. */
const freshPhone = async (db: Kysely<Database>, avoid: Set<string>): Promise<string> => {
  for (;;) {
    const phone = `15${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}`
    if (!avoid.has(phone) && !(await phoneTaken(db, phone))) {
      avoid.add(phone)
      return phone
    }
  }
}

/** At most 8 characters, like every username (an invitation code is a username). */
const freshUsername = (): string => `t${randomBytes(8).readBigUInt64BE().toString(36).slice(0, 7)}`

const freshCode = (prefix: string): string =>
  prefix + Array.from({ length: 15 - prefix.length }, () => CODE_ALPHABET[randomInt(0, CODE_ALPHABET.length)]).join('')

export const createFixtureWorld = async (db: Kysely<Database>, now = Date.now()): Promise<FixtureWorld> => {
  const used = new Set<string>()
  const password = DEMO_PASSWORD
  const ids = {} as Record<Profile, number>
  const accounts = {} as Record<Profile, FixtureAccount>
  for (const [profile, u] of Object.entries(demoUsers) as Array<[Profile, (typeof demoUsers)[Profile]]>) {
    const phone = await freshPhone(db, used)
    const username = freshUsername()
    const row = await db.insertInto('users')
      .values({ username, phone, password_hash: await hashPasswordMd5(md5Hex(password)), user_type: u.userType, nick_name: u.nickName })
      .returning('id').executeTakeFirstOrThrow()
    ids[profile] = row.id
    accounts[profile] = { phone, password, username, nickName: u.nickName }
  }

  const cards: Record<string, number> = {}
  await db.transaction().execute(async (trx) => {
    const fleet = fleetDevices(ids.fleet, now)
    const fresh = await nextUserCardIds(trx, demoDevices.length + fleet.length)
    let next = 0
    for (const d of demoDevices) {
      const userCardId = fresh[next++]!
      cards[d.diskName] = userCardId
      const device = await trx.insertInto('devices').values({
        user_card_id: userCardId, owner_id: ids[d.owner], disk_name: d.diskName, buy_vip_type: d.tier,
        expires_at: new Date(now + d.minutesLeft * MINUTE), room: '华东一区', free_trial: 0,
        phone_type: d.phoneType, android_version: d.androidVersion, preview_url: d.previewUrl,
      }).returning('id').executeTakeFirstOrThrow()
      if (d.grantee) {
        await trx.insertInto('device_auths').values({ device_id: device.id, owner_id: ids[d.owner], grantee_id: ids[d.grantee] }).execute()
      }
    }
    await trx.insertInto('devices')
      .values(fleet.map((d) => ({ ...d, user_card_id: fresh[next++]! })))
      .execute()
  })
  // the authorisation records and timing records the devices module keeps for every device
  await seedDeviceDemoData(db, now)
  await seedAccountDemoData(db, now, [accounts.demo.phone, accounts.partner.phone, accounts.member.phone])

  const personal = demoNotices.find((n) => n.to !== null)
  if (personal) {
    await messagesDb(db).insertInto('notices').values({
      title: personal.title, content: personal.content, notice_type: personal.noticeType, pop_up: personal.popUp,
      user_id: ids.demo, seed_key: `fixture:${accounts.demo.phone}:${personal.key}`, created_at: new Date(now - personal.hoursAgo * 3_600_000),
    }).execute()
  }

  const codes = { coupon: freshCode('CPN'), device: freshCode('DEV') }
  const year = new Date(now + 365 * DAY)
  await accountDb(db).insertInto('account_activation_codes').values([
    { code: codes.coupon, code_type: ActivationCodeType.coupon, coupon_name: '激活码专享5元券', coupon_type: 1, coupon_value: 5, coupon_valid_days: 30, expires_at: year },
    { code: codes.device, code_type: ActivationCodeType.device, days: 7, expires_at: year },
  ]).execute()

  const unregisteredPhones = [await freshPhone(db, used), await freshPhone(db, used)]
  return { accounts, cards, codes, unregisteredPhones }
}

/** Registered by routes.ts after its /__ops/* guard, so only the operator reaches it. */
export const registerFixtureRoute = (app: App, db: Kysely<Database>): void => {
  app.post('/__ops/fixture', async (c) => c.json(envelope(0, await createFixtureWorld(db))))
}
