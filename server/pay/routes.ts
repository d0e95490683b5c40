// Package endpoints: meal types (loaded by the client at startup) and the online meal list.
import { catalogue } from '../../worker/protocol/catalogue.ts'
import type { ServerContext } from '../context.ts'

export const registerPayRoutes = (ctx: ServerContext): void => {
  const { app, db, route } = ctx

  route(app, catalogue.mealTypeList, async () => {
    const rows = await db.selectFrom('meal_types').selectAll().orderBy('sort').orderBy('id').execute()
    return rows.map((r) => ({
      phoneType: r.phone_type,
      phoneTypeName: r.phone_type_name,
      androidVersion: r.android_version,
      previewUrl: r.preview_url,
    }))
  })

  route(app, catalogue.getMealList, async ({ c }) => {
    const phoneType = c.req.query('phoneType')
    let query = db.selectFrom('meals').selectAll().orderBy('sort').orderBy('id')
    if (phoneType) query = query.where('phone_type', '=', phoneType)
    const rows = await query.execute()
    return {
      mealList: rows.map((m) => ({
        id: m.id,
        phoneType: m.phone_type,
        mealName: m.meal_name,
        day: m.day,
        actualPrice: m.actual_price,
        originalPrice: m.original_price,
        preferentialContent: m.preferential_content,
        customStatement: m.custom_statement,
        giveStarNum: m.give_star_num,
        support: m.support,
        renewalType: m.renewal_type,
        remainQuantity: m.remain_quantity,
        phoneRemainQuantity: -1,
        menuAddedService: [{ serviceName: '一键换机' }, { serviceName: '修改云机参数' }],
      })),
    }
  })
}
