// Idempotent demo data: four users, five devices of the demo user covering every list marker, a 60-device fleet,
// meal types, meals, the system name, the maintenance row, ads and notices. Existing rows are left alone.
import type { Kysely } from 'kysely'
import type { Database } from './schema.ts'
import { syncUserCardIds } from './row-locks.ts'
import { hashPasswordMd5, md5Hex } from '../crypto/password.ts'
import { seedMessagesDemoData } from '../messages/seed.ts'
import { seedAccountDemoData } from '../account/seed.ts'

export const DEMO_PASSWORD = 'Demo@2026'

export const demoUsers = {
  demo: { username: 'demo', phone: '13800138000', userType: 1, nickName: '演示用户' },
  partner: { username: 'partner', phone: '13700137000', userType: 1, nickName: '授权伙伴' },
  unbound: { username: 'wx_unbound', phone: '13900139000', userType: 2, nickName: '待绑定手机用户' },
  fleet: { username: 'fleet60', phone: '13600136000', userType: 1, nickName: '六十台用户' },
  member: { username: 'member', phone: '13500135000', userType: 1, nickName: '普通会员' },
} as const

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

/** The demo user's devices; `owner` and `grantee` name demoUsers keys, `minutesLeft` is relative to seeding time. */
export const demoDevices = [
  { userCardId: 880001, owner: 'demo', diskName: '云手机-01', tier: 'VIP', minutesLeft: 30 * 24 * 60, phoneType: 'STANDARD', androidVersion: '10', previewUrl: 'default', grantee: null },
  { userCardId: 880002, owner: 'demo', diskName: '云手机-02', tier: 'SVIP', minutesLeft: 2 * 24 * 60 + 5 * 60, phoneType: 'PERFORMANCE', androidVersion: '12', previewUrl: 'defaultPhonePreviewUrl', grantee: null },
  { userCardId: 880003, owner: 'demo', diskName: '云手机-03', tier: 'VIP', minutesLeft: -24 * 60, phoneType: 'STANDARD', androidVersion: '9', previewUrl: 'default', grantee: null },
  { userCardId: 880004, owner: 'partner', diskName: '伙伴的云手机', tier: 'SVIP', minutesLeft: 15 * 24 * 60, phoneType: 'PERFORMANCE', androidVersion: '13', previewUrl: 'defaultPhonePreviewUrl', grantee: 'demo' },
  { userCardId: 880005, owner: 'demo', diskName: '已授权云手机', tier: 'VIP', minutesLeft: 60 * 24 * 60, phoneType: 'STANDARD', androidVersion: '12', previewUrl: 'default', grantee: 'partner' },
  { userCardId: 880006, owner: 'member', diskName: '会员云手机', tier: 'VIP', minutesLeft: 20 * 24 * 60, phoneType: 'STANDARD', androidVersion: '12', previewUrl: 'default', grantee: null },
] as const

/** The fleet user's 60 devices (the per-account maximum): every tier, some expiring soon, some expired. */
export const FLEET_SIZE = 60
export const fleetDevices = (ownerId: number, now: number) =>
  Array.from({ length: FLEET_SIZE }, (_, i) => {
    const standard = i % 2 === 0
    const minutesLeft = i % 10 === 9 ? -60 : i % 7 === 3 ? 36 * 60 : (i * 3 + 5) * 24 * 60
    return {
      user_card_id: 890001 + i, owner_id: ownerId, disk_name: `批量云手机-${String(i + 1).padStart(2, '0')}`,
      buy_vip_type: (['VIP', 'SVIP', 'STAR', 'STARPRO'] as const)[i % 4], expires_at: new Date(now + minutesLeft * MINUTE),
      room: '华南二区', free_trial: 0, phone_type: standard ? 'STANDARD' : 'PERFORMANCE',
      android_version: standard ? ['9', '10', '12'][i % 3]! : ['10', '12', '13'][i % 3]!,
      preview_url: standard ? 'default' : 'defaultPhonePreviewUrl',
    }
  })

const mealTypes = [
  { phoneType: 'STANDARD', name: '标准版', versions: ['9', '10', '12'], previewUrl: 'default' },
  { phoneType: 'PERFORMANCE', name: '性能版', versions: ['10', '12', '13'], previewUrl: 'defaultPhonePreviewUrl' },
] as const

const meals = [
  { phoneType: 'STANDARD', name: '标准版 天卡', day: 1, actual: '1.99', original: '2.99', badge: '' },
  { phoneType: 'STANDARD', name: '标准版 月卡', day: 30, actual: '39.90', original: '59.90', badge: '热销' },
  { phoneType: 'PERFORMANCE', name: '性能版 周卡', day: 7, actual: '19.90', original: '', badge: '' },
  { phoneType: 'PERFORMANCE', name: '性能版 月卡', day: 30, actual: '69.90', original: '99.90', badge: '推荐' },
] as const

export const seed = async (db: Kysely<Database>, now = Date.now()): Promise<void> => {
  const ids: Record<string, number> = {}
  for (const [key, u] of Object.entries(demoUsers)) {
    const existing = await db.selectFrom('users').select('id').where('phone', '=', u.phone).executeTakeFirst()
    if (existing) {
      ids[key] = existing.id
      continue
    }
    await db
      .insertInto('users')
      .values({ username: u.username, phone: u.phone, password_hash: await hashPasswordMd5(md5Hex(DEMO_PASSWORD)), user_type: u.userType, nick_name: u.nickName })
      .onConflict((oc) => oc.column('phone').doNothing())
      .execute()
    ids[key] = (await db.selectFrom('users').select('id').where('phone', '=', u.phone).executeTakeFirstOrThrow()).id
  }
  for (const d of demoDevices) {
    await db
      .insertInto('devices')
      .values({
        user_card_id: d.userCardId, owner_id: ids[d.owner]!, disk_name: d.diskName, buy_vip_type: d.tier,
        expires_at: new Date(now + d.minutesLeft * MINUTE), room: '华东一区', free_trial: 0,
        phone_type: d.phoneType, android_version: d.androidVersion, preview_url: d.previewUrl,
      })
      .onConflict((oc) => oc.column('user_card_id').doNothing())
      .execute()
    if (d.grantee) {
      const device = await db.selectFrom('devices').select('id').where('user_card_id', '=', d.userCardId).executeTakeFirstOrThrow()
      await db
        .insertInto('device_auths')
        .values({ device_id: device.id, owner_id: ids[d.owner]!, grantee_id: ids[d.grantee]! })
        .onConflict((oc) => oc.columns(['device_id', 'grantee_id']).doNothing())
        .execute()
    }
  }
  // one statement for the whole fleet: a first start stays quick
  await db.insertInto('devices').values(fleetDevices(ids.fleet!, now)).onConflict((oc) => oc.column('user_card_id').doNothing()).execute()
  // new devices take their userCardIds from the sequence: it goes on past the fixed numbers above
  await syncUserCardIds(db)
  let sort = 0
  for (const t of mealTypes) {
    for (const v of t.versions) {
      await db
        .insertInto('meal_types')
        .values({ phone_type: t.phoneType, phone_type_name: t.name, android_version: v, preview_url: t.previewUrl, sort: sort++ })
        .onConflict((oc) => oc.columns(['phone_type', 'android_version']).doNothing())
        .execute()
    }
  }
  sort = 0
  for (const m of meals) {
    await db
      .insertInto('meals')
      .values({
        phone_type: m.phoneType, meal_name: m.name, day: m.day, actual_price: m.actual, original_price: m.original,
        preferential_content: m.badge, custom_statement: '不限次数', give_star_num: m.day >= 30 ? 10 : 0,
        support: true, renewal_type: 1, remain_quantity: -1, sort: sort++,
      })
      .onConflict((oc) => oc.columns(['phone_type', 'meal_name']).doNothing())
      .execute()
  }
  await db.insertInto('system_config').values({ key: 'systemName', value: '星云' }).onConflict((oc) => oc.column('key').doNothing()).execute()
  await db
    .insertInto('maintenance')
    .values({ id: 1, maintenance_switch: false, maintenance_content: '', show_time: '' })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute()
  await seedMessagesDemoData(db, now)
  await seedAccountDemoData(db, now)
}
