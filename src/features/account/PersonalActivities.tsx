// The personal centre's activity part: coupons that arrived lately (getNewCoupon) and the activity cards
// (getPersonalCenterActivity), where a commodity redeems star coins for an activation code.
import { useNavigate } from '@tanstack/react-router'
import { Button, Dialog, Toast } from 'antd-mobile'
import { useCallback, useEffect, useState } from 'react'
import type { Coupon } from '../../../worker/protocol/account.ts'
import type { PersonalActivity } from '../../../worker/protocol/activity.ts'
import { zhCN } from '../../i18n/zh-CN.ts'
import { useCall } from '../../core/use-call.ts'
import { PATHS } from '../../router/paths.ts'

const t = zhCN.activity

/** onRedeemed: the star coin balance changed. */
export const PersonalActivities = ({ onRedeemed }: { onRedeemed: () => void }) => {
  const call = useCall()
  const navigate = useNavigate()
  const [coupons, setCoupons] = useState<ReadonlyArray<Coupon>>([])
  const [activities, setActivities] = useState<ReadonlyArray<PersonalActivity>>([])
  const [busy, setBusy] = useState<number | null>(null)

  useEffect(() => {
    let live = true
    void call('getNewCoupon', {}).then((r) => live && r.ok && r.data && setCoupons(r.data))
    void call('getPersonalCenterActivity', {}).then((r) => live && r.ok && r.data && setActivities(r.data))
    return () => {
      live = false
    }
  }, [call])

  const copy = useCallback(async (code: string) => {
    try {
      await navigator.clipboard.writeText(code)
      Toast.show({ content: t.copied })
    } catch {
      Toast.show({ content: t.copyFailed })
    }
  }, [])

  const redeem = async (a: PersonalActivity) => {
    if (a.commodityId === null) return
    const ok = await Dialog.confirm({ title: t.redeemConfirmTitle, content: t.redeemConfirm(a.title, a.starCoin), confirmText: t.confirm, cancelText: t.cancel })
    if (!ok) return
    setBusy(a.id)
    const r = await call('commodityActivationCode', { commodityId: a.commodityId })
    setBusy(null)
    if (!r.ok || !r.data) return
    onRedeemed()
    const { activationCode, codeName } = r.data
    Dialog.show({
      title: t.redeemedTitle,
      content: (
        <div data-testid="redeemed">
          <p className="ac-hint">{t.redeemedContent(codeName)}</p>
          <div className="ac-invite-link" data-testid="redeemed-code">{activationCode}</div>
        </div>
      ),
      closeOnAction: true,
      actions: [[
        { key: 'copy', text: t.copy, onClick: () => void copy(activationCode) },
        { key: 'use', text: t.useNow, bold: true, onClick: () => void navigate({ to: PATHS.activationCode }) },
      ], [{ key: 'close', text: t.close }]],
    })
  }

  return (
    <>
      {coupons.length > 0 && (
        <button type="button" className="ac-card ac-new-coupons" data-testid="personal-new-coupons" onClick={() => void navigate({ to: PATHS.couponNum })}>
          <span className="ac-new-coupons-title">{t.newCoupons}<strong>{t.newCouponsCount(coupons.length)}</strong></span>
          <span className="ac-hint">{coupons.slice(0, 2).map((c) => c.couponName).join('、')}{coupons.length > 2 ? t.newCouponsMore(coupons.length) : t.newCouponsGo}</span>
        </button>
      )}
      {activities.length > 0 && (
        <section className="ac-card" data-testid="personal-activities">
          <div className="ac-heading" style={{ fontSize: 16 }}>{t.activities}</div>
          {activities.map((a) => (
            <div key={a.id} className="ac-activity" data-testid="personal-activity" data-activity-id={a.id}>
              <div>
                <div className="ac-activity-title">{a.title}</div>
                <p className="ac-hint">{a.content}</p>
              </div>
              {a.commodityId !== null && (
                <Button size="small" color="primary" fill="outline" loading={busy === a.id} disabled={busy !== null}
                  data-testid="personal-activity-redeem" onClick={() => void redeem(a)}>
                  {t.redeem(a.starCoin)}
                </Button>
              )}
            </div>
          ))}
        </section>
      )}
    </>
  )
}
