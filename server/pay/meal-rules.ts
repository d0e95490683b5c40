// Purchase rules and meal presentation: the phone types' corner tags, the purchase and batch rules texts, and the
// switch for the batch entries. All public: they are the same for everyone, and home asks for the switch for visitors too.
import type { Kysely } from 'kysely'
import { catalogue } from '../../worker/protocol/catalogue.ts'
import type { ServerContext } from '../context.ts'
import type { Database } from '../db/schema.ts'
import { readConfigText, readSwitch } from '../system/switches.ts'

interface MealIconsTable {
  phone_type: string
  icon_text: string
  icon_url: string
}

const rules = async (db: Kysely<Database>, prefix: string) => ({
  title: await readConfigText(db, `${prefix}Title`),
  content: await readConfigText(db, `${prefix}Content`),
})

export const registerMealRulesRoutes = (ctx: ServerContext): void => {
  const { app, publicRoute, db } = ctx
  const icons = db.withTables<{ meal_icons: MealIconsTable }>()

  publicRoute(app, catalogue.getMealIconInfo, async () =>
    (await icons.selectFrom('meal_icons').selectAll().orderBy('phone_type').execute())
      .map((r) => ({ phoneType: r.phone_type, iconText: r.icon_text, iconUrl: r.icon_url })))
  publicRoute(app, catalogue.getMealRulesNewInfo, () => rules(db, 'mealRules'))
  publicRoute(app, catalogue.getBatchMealRulesInfo, () => rules(db, 'batchMealRules'))
  publicRoute(app, catalogue.getPhoneMealBatchSwitch, () => readSwitch(db, 'batch'))
}
