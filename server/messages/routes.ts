// Messages endpoints: pop-up ads by ad place (public) and the signed-in user's notices (list, unread total, the
// announcement to pop up on home, mark read). Notices with no user are everyone's.
import { sql } from 'kysely'
import { catalogue } from '../../worker/protocol/catalogue.ts'
import { PAGES, pageOf } from '../../worker/protocol/paging.ts'
import type { Notice } from '../../worker/protocol/messages.ts'
import type { ServerContext } from '../context.ts'
import { DomainError, notFound, Status } from '../http/errors.ts'
import { registerAdPages } from './ad-pages.ts'
import { messagesDb, type MessagesDb } from './tables.ts'
import { originOf } from '../http/origin.ts'


/** A stored "/path" points at this server; anything else is passed on as stored (the tab judges it). */
const resolveUrl = (stored: string, origin: string): string => (stored.startsWith('/') ? origin + stored : stored)

const visibleNotices = (db: MessagesDb, userId: number) =>
  db.selectFrom('notices')
    .leftJoin('notice_reads', (j) => j.onRef('notice_reads.notice_id', '=', 'notices.id').on('notice_reads.user_id', '=', userId))
    .where((eb) => eb.or([eb('notices.user_id', 'is', null), eb('notices.user_id', '=', userId)]))

const toNotice = (r: { id: number; title: string; content: string; notice_type: number; read_at: Date | null; created_at: Date }): Notice => ({
  id: r.id, title: r.title, content: r.content, noticeType: r.notice_type, readStatus: r.read_at === null ? 0 : 1,
  ctime: new Date(r.created_at).toISOString(),
})

const noticeColumns = ['notices.id', 'notices.title', 'notices.content', 'notices.notice_type', 'notices.created_at', 'notice_reads.read_at'] as const

export const registerMessageRoutes = (ctx: ServerContext): void => {
  const { app, route, publicRoute } = ctx
  const db = messagesDb(ctx.db)
  registerAdPages(app)

  publicRoute(app, catalogue.getAdInfoByAdPlace, async ({ payload, c }) => {
    const origin = originOf(c)
    const rows = await db.selectFrom('ads').selectAll()
      .where('ad_place', '=', payload.adPlace).where('enabled', '=', true)
      .orderBy('sort').orderBy('id').execute()
    return rows.map((r) => ({
      id: r.id, adName: r.ad_name, imageUrl: resolveUrl(r.image_url, origin), clickUrl: resolveUrl(r.click_url, origin),
      phoneType: r.phone_type, androidVersion: r.android_version,
    }))
  })

  route(app, catalogue.noticeAll, async ({ payload, user }) => {
    const { limit, offset } = pageOf(payload, PAGES.notices)
    const rows = await visibleNotices(db, user.id).select(noticeColumns)
      .orderBy('notices.created_at', 'desc').orderBy('notices.id', 'desc')
      .limit(limit).offset(offset).execute()
    const { total } = await visibleNotices(db, user.id).select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow()
    return { list: rows.map(toNotice), total: Number(total) }
  })

  route(app, catalogue.noticeUnreadTotal, async ({ user }) => {
    const { total } = await visibleNotices(db, user.id).where('notice_reads.read_at', 'is', null)
      .select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow()
    return Number(total)
  })

  route(app, catalogue.getNoticePopUpPush, async ({ user }) => {
    const row = await visibleNotices(db, user.id).select(noticeColumns)
      .where('notices.pop_up', '=', true).where('notices.notice_type', '=', 1).where('notice_reads.read_at', 'is', null)
      .orderBy('notices.created_at', 'desc').orderBy('notices.id', 'desc')
      .executeTakeFirst()
    // empty data: the tab sees `false` (§7) and shows no announcement
    return row ? toNotice(row) : null
  })

  // §7 puts the id in the path; a request whose path still carries the template gives it in the body instead.
  route(app, { ...catalogue.readNotice, path: '/api/message/v1/message/notice/read/:id' }, async ({ payload, user, c }) => {
    const fromPath = Number(c.req.param('id'))
    const id = Number.isInteger(fromPath) && fromPath > 0 ? fromPath : payload.id
    if (id === undefined || !Number.isInteger(id)) throw new DomainError(Status.invalidPayload, '缺少消息编号')
    const notice = await visibleNotices(db, user.id).select('notices.id').where('notices.id', '=', id).executeTakeFirst()
    if (!notice) throw notFound('消息')
    await db.insertInto('notice_reads').values({ notice_id: id, user_id: user.id })
      .onConflict((oc) => oc.columns(['notice_id', 'user_id']).doNothing()).execute()
    return null
  })
}
