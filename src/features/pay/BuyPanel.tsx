// The shared body of the buy, renew and batch screens: meal list, quantity, coupon, payment method, price, and the
// confirmed pay step (order create, then star coins, the Alipay QR pay-order page or an H5 payment page).
import { Button, Radio, Toast } from 'antd-mobile'
import { useNavigate } from '@tanstack/react-router'
import { useEffect, useMemo, useState } from 'react'
import type { Coupon, Meal, PaySwitch } from '../../../worker/protocol/pay.ts'
import { zhCN } from '../../i18n/zh-CN.ts'
import { isAuthorisedToMe } from '../devices/device-rules.ts'
import { useAppStore } from '../../store/index.ts'
import { NumberStepper } from '../../ui/NumberStepper.tsx'
import { payBlockedText } from './order-rules.ts'
import { DEVICE_NAME_MAX, DEVICE_NAME_RULE, isDeviceName } from '../../../worker/protocol/validators.ts'
import { PATHS } from '../../router/paths.ts'
import { Points } from '../analytics/points.ts'
import { MealRules } from './MealRules.tsx'
import { PayMethods } from './PayMethods.tsx'
import { startPayment } from './start-payment.ts'
import {
  bestCoupon, couponApplies, formatYuan, maxPurchasable, payableCents, starCoinPrice, subtotalCents, toCents, type PayMethod,
} from '../../../worker/protocol/pricing.ts'
import { useCall, withData } from '../../core/use-call.ts'
import { useConfirmPayment } from './payment-popup.ts'
import './pay.css'
import { BuyType } from '../../../worker/protocol/domain.ts'

const t = zhCN.pay

export interface BuyPanelProps {
  readonly mode: 'buy' | 'renew'
  readonly phoneType: string
  readonly androidVersion?: string
  /** renew: the devices to renew (their count is the quantity). */
  readonly userCardIds?: ReadonlyArray<number>
  /** getUserCouponSort products: '10' buy, '20' renew, '30' batch buy, '40' batch renew. */
  readonly products: '10' | '20' | '30' | '40'
  readonly initialQuantity?: number
  /** buy: the batch switch (null while unknown); while it is off one order buys one device, as the server enforces. */
  readonly batchOn?: boolean | null
}

type Load = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; meals: ReadonlyArray<Meal> }

const couponText = (c: Coupon): string => (c.couponType === 1 ? t.couponFixed(c.couponValue) : t.couponDiscount(c.deductionPrice, c.maxValue))

export const BuyPanel = ({ mode, phoneType, androidVersion, userCardIds = [], products, initialQuantity = 1, batchOn = null }: BuyPanelProps) => {
  const call = useCall()
  const confirmPayment = useConfirmPayment()
  const navigate = useNavigate()
  const owned = useAppStore((s) => s.devices.list.filter((d) => !isAuthorisedToMe(d)).length)
  const [load, setLoad] = useState<Load>({ state: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const [mealId, setMealId] = useState<number | null>(null)
  const [quantityInput, setQuantity] = useState(initialQuantity)
  const [coupons, setCoupons] = useState<ReadonlyArray<Coupon>>([])
  const [couponId, setCouponId] = useState<number | null>(null)
  const [method, setMethod] = useState<PayMethod>('alipayQr')
  const [paySwitch, setPaySwitch] = useState<PaySwitch | null>(null)
  const [submitting, setSubmitting] = useState(false)
  /** buy, one device: its name (optional; empty = the server's default name). */
  const [deviceName, setDeviceName] = useState('')

  const maxQuantity = mode === 'buy' ? Math.min(maxPurchasable(owned), batchOn === false ? 1 : Infinity) : userCardIds.length
  const quantity = mode === 'buy' ? Math.max(1, Math.min(quantityInput, Math.max(1, maxQuantity))) : userCardIds.length

  useEffect(() => {
    let live = true
    setLoad({ state: 'loading' })
    // §3: the online meal list is data.mealList; §8: its failure is silent (no toast), so the list offers a retry
    void call('getMealList', { phoneType }).then((r) => {
      if (!live) return
      if (!r.ok) return setLoad({ state: 'failed' })
      const meals = r.data ? r.data.mealList : []
      setLoad({ state: 'ready', meals })
      setMealId((cur) => (meals.some((m) => m.id === cur) ? cur : (meals[0]?.id ?? null)))
    })
    return () => {
      live = false
    }
  }, [call, phoneType, attempt])

  useEffect(() => {
    void call('getControlSwitch', {}).then((r) => r.ok && r.data !== false && setPaySwitch(r.data))
  }, [call])

  const meal = load.state === 'ready' ? (load.meals.find((m) => m.id === mealId) ?? null) : null
  const subtotal = meal ? subtotalCents(meal, quantity) : 0

  const couponMeal = meal === null ? null : { support: meal.support, renewalType: meal.renewalType, actualPrice: meal.actualPrice, originalPrice: meal.originalPrice, remainQuantity: meal.remainQuantity }
  const couponMealKey = couponMeal === null ? '' : JSON.stringify(couponMeal)
  useEffect(() => {
    if (couponMealKey === '' || quantity < 1) return
    const rules = JSON.parse(couponMealKey) as NonNullable<typeof couponMeal>
    let live = true
    void call('getUserCouponSort', { products, payAmount: subtotalCents(rules, quantity) / 100 }).then((r) => {
      if (!live) return
      const list = (r.ok && r.data) || []
      setCoupons(list)
      setCouponId(bestCoupon(rules, list, quantity, 'alipayQr')?.id ?? null)
    })
    return () => {
      live = false
    }
  }, [call, couponMealKey, quantity, products])

  const coupon = useMemo(() => coupons.find((c) => c.id === couponId) ?? null, [coupons, couponId])
  const usableCoupon = meal && coupon && couponApplies(meal, coupon, quantity, method) ? coupon : null
  const payCents = meal ? payableCents(meal, quantity, usableCoupon, method) : 0
  const stars = meal ? starCoinPrice(meal, quantity) : 0
  const blocked = payBlockedText(paySwitch, navigator.userAgent)
  const amountText = method === 'starCoin' ? t.starCoins(stars) : t.yuan(formatYuan(payCents))
  const cannotBuy = mode === 'buy' && maxQuantity < 1

  const naming = mode === 'buy' && quantity === 1
  const nameText = naming ? deviceName.trim() : ''
  const nameInvalid = nameText !== '' && !isDeviceName(nameText)

  const pay = async () => {
    if (!meal || blocked || cannotBuy) return
    if (nameInvalid) return Toast.show({ content: DEVICE_NAME_RULE })
    if (mode === 'renew' && userCardIds.length === 0) return Toast.show({ content: t.chooseFirst })
    const ok = await confirmPayment(
      mode === 'buy' ? t.confirmBuy(meal.mealName, quantity, amountText) : t.confirmRenew(meal.mealName, quantity, amountText),
    )
    if (!ok) return
    setSubmitting(true)
    try {
      const created = withData(await call('orderCreate', {
        buyType: mode === 'buy' ? BuyType.buy : BuyType.renew, id: meal.id, phoneType, quantity, mealType: meal.buyVipType,
        couponId: usableCoupon?.id ?? null,
        ...(mode === 'buy'
          ? { androidVersion: androidVersion ?? '', ...(nameText !== '' ? { diskName: nameText } : {}) }
          : { userCardIdStr: userCardIds.join(',') }),
      }))
      if (!created.ok) return
      const myOrderNum = created.data.myOrderNum
      void call('stat', { pointName: Points.purchaseOrder })
      const step = await startPayment(call, method, myOrderNum)
      if (step.kind === 'paid') await navigate({ to: PATHS.orderResult, search: { myOrderNum }, replace: true })
      else if (step.kind === 'qr') await navigate({ to: PATHS.alipayCodeScanning, search: { myOrderNum } })
      // an H5 payment that could not start leaves an unpaid order, payable from the purchase records
      else if (step.kind === 'failed' && method !== 'starCoin') await navigate({ to: PATHS.purchaseRecord })
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <div className="pay-panel" data-testid="buy-panel">
      <section className="pay-section">
        <h3>{t.meals}</h3>
        {load.state === 'loading' && <p className="pay-muted">{t.loading}</p>}
        {load.state === 'failed' && (
          <p className="pay-muted">
            {t.mealsFailed} <Button size="mini" onClick={() => setAttempt((n) => n + 1)}>{t.retry}</Button>
          </p>
        )}
        {load.state === 'ready' && load.meals.length === 0 && <p className="pay-muted" data-testid="buy-no-meals">{t.noMeals}</p>}
        {load.state === 'ready' && (
          <div className="pay-meals">
            {load.meals.map((m) => {
              const original = toCents(m.originalPrice)
              return (
                <button
                  key={m.id}
                  type="button"
                  className={`pay-meal${m.id === mealId ? ' pay-meal-on' : ''}`}
                  data-testid="buy-meal"
                  data-meal-id={m.id}
                  data-day={m.day}
                  aria-pressed={m.id === mealId}
                  onClick={() => setMealId(m.id)}
                >
                  {m.preferentialContent && <span className="pay-badge">{m.preferentialContent}</span>}
                  <span className="pay-meal-name">{m.mealName}</span>
                  <span className="pay-meal-price">
                    {t.yuan(m.actualPrice)}
                    {original !== null && original > (toCents(m.actualPrice) ?? 0) && <s className="pay-muted"> {t.original(m.originalPrice)}</s>}
                  </span>
                  <span className="pay-muted">{t.days(m.day)} · {m.customStatement || '不限次数'}</span>
                  {m.giveStarNum > 0 && <span className="pay-give">{t.giveStar(m.giveStarNum)}</span>}
                </button>
              )
            })}
          </div>
        )}
        {meal && meal.menuAddedService.length > 0 && (
          <p className="pay-services">
            {t.addedServices}：{meal.menuAddedService.map((s) => s.serviceName).join(' · ')}
          </p>
        )}
      </section>

      {mode === 'buy' && (
        <section className="pay-section">
          <div className="pay-row">
            <h3>{t.quantity}</h3>
            <NumberStepper
              testId="buy-quantity"
              label={t.quantity}
              min={1}
              max={Math.max(1, maxQuantity)}
              value={quantity}
              disabled={cannotBuy}
              onChange={setQuantity}
            />
          </div>
          {naming && (
            <div className="pay-row pay-name-row">
              <label htmlFor="buy-device-name">{t.deviceName}</label>
              <input id="buy-device-name" className="pay-name-input" data-testid="buy-device-name" maxLength={DEVICE_NAME_MAX * 2}
                placeholder={t.deviceNamePlaceholder} aria-invalid={nameInvalid} aria-describedby={nameInvalid ? 'buy-device-name-rule' : undefined}
                value={deviceName} onChange={(e) => setDeviceName(e.target.value)} />
            </div>
          )}
          {naming && nameInvalid && <p className="pay-name-rule" id="buy-device-name-rule" role="alert" data-testid="buy-device-name-rule">{DEVICE_NAME_RULE}</p>}
          <p className="pay-muted" data-testid="buy-quantity-note">{cannotBuy ? t.quantityNone : batchOn === false ? t.quantityOneAtATime : t.quantityMax(maxQuantity)}</p>
        </section>
      )}

      <section className="pay-section">
        <h3>{t.payMethod}</h3>
        {blocked ? <p className="pay-blocked" data-testid="buy-blocked">{blocked}</p> : <PayMethods value={method} onChange={setMethod} testIdPrefix="buy" />}
      </section>

      <section className="pay-section" data-testid="buy-coupons">
        <h3>{t.coupon}</h3>
        {method === 'starCoin' ? (
          <p className="pay-muted">{t.couponStarCoin}</p>
        ) : meal && !(meal.support && meal.renewalType === 1) ? (
          <p className="pay-muted">{t.couponNotSupported}</p>
        ) : coupons.length === 0 ? (
          <p className="pay-muted">{t.couponNone}</p>
        ) : (
          <Radio.Group value={couponId ?? 0} onChange={(v) => setCouponId(v === 0 ? null : Number(v))}>
            <div className="pay-methods">
              {coupons.map((c) => {
                const usable = meal !== null && couponApplies(meal, c, quantity, method)
                return (
                  <Radio key={c.id} value={c.id} disabled={!usable} data-testid="buy-coupon-item" data-coupon-id={c.id}>
                    {c.couponName}<span className="pay-muted">（{couponText(c)}{!c.batchBuy && quantity > 1 ? `，${t.couponNoBatch}` : ''}）</span>
                  </Radio>
                )
              })}
              <Radio value={0} data-testid="buy-coupon-none">{t.noCoupon}</Radio>
            </div>
          </Radio.Group>
        )}
      </section>

      <MealRules batch={products === '30' || products === '40'} />

      <footer className="pay-footer">
        <div>
          <span className="pay-muted">{t.total}</span>{' '}
          <strong className="pay-total" data-testid="buy-total">{meal ? amountText : '--'}</strong>
          {meal && method !== 'starCoin' && usableCoupon && <s className="pay-muted"> {t.yuan(formatYuan(subtotal))}</s>}
        </div>
        <Button
          color="primary"
          data-testid="buy-submit"
          loading={submitting}
          disabled={!meal || submitting || blocked !== null || cannotBuy || nameInvalid}
          onClick={() => void pay()}
        >
          {t.payNow}
        </Button>
      </footer>
    </div>
  )
}
