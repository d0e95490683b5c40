// Idempotent demo ads (two home pop-ups: a promo page and a purchase shortcut) and notices (a system announcement
// for everyone, an activity notice, and one addressed to the demo user). Existing rows are left alone.
import type { Kysely } from 'kysely'
import { AD_PLACE_HOME_POPUP } from '../../worker/protocol/constants.ts'
import type { Database } from '../db/schema.ts'
import { messagesDb } from './tables.ts'

const HOUR = 3_600_000

export const demoAds = [
  { adName: '春季焕新活动', imageUrl: '/ads/assets/spring.png', clickUrl: '/ads/promo/spring', phoneType: null, androidVersion: null },
  { adName: '性能版限时特惠', imageUrl: '/ads/assets/performance.png', clickUrl: '1', phoneType: 'PERFORMANCE', androidVersion: '12' },
] as const

export const demoNotices = [
  {
    key: 'upgrade-announcement', title: '系统升级公告', noticeType: 1, popUp: true, to: null, hoursAgo: 2,
    content: '为提升云手机稳定性，我们将于本周六凌晨 02:00-04:00 进行系统升级，期间云手机可能短暂无法连接，给您带来不便敬请谅解。',
  },
  {
    key: 'spring-activity', title: '春季焕新活动上线', noticeType: 2, popUp: false, to: null, hoursAgo: 26,
    content: '活动期间购买性能版月卡即赠 10 星币，续费享 9 折优惠，数量有限，先到先得。',
  },
  {
    key: 'demo-expiring', title: '云手机即将到期提醒', noticeType: 2, popUp: false, to: '13800138000', hoursAgo: 50,
    content: '您的云手机「云手机-02」剩余时长不足 3 天，请及时续费，以免数据被清除。',
  },
] as const

export const seedMessagesDemoData = async (core: Kysely<Database>, now = Date.now()): Promise<void> => {
  const db = messagesDb(core)
  await db.insertInto('ads')
    .values(demoAds.map((a, sort) => ({
      ad_place: AD_PLACE_HOME_POPUP, ad_name: a.adName, image_url: a.imageUrl, click_url: a.clickUrl,
      phone_type: a.phoneType, android_version: a.androidVersion, sort,
    })))
    .onConflict((oc) => oc.column('ad_name').doNothing())
    .execute()
  for (const n of demoNotices) {
    const user = n.to === null ? null : await db.selectFrom('users').select('id').where('phone', '=', n.to).executeTakeFirst()
    if (n.to !== null && !user) continue
    await db.insertInto('notices')
      .values({
        title: n.title, content: n.content, notice_type: n.noticeType, pop_up: n.popUp, user_id: user?.id ?? null,
        seed_key: n.key, created_at: new Date(now - n.hoursAgo * HOUR),
      })
      .onConflict((oc) => oc.column('seed_key').doNothing())
      .execute()
  }
}
