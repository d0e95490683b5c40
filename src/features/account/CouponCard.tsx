// One coupon as a ticket: face value (元 or 折) on the left, name, terms, validity and state on the right.
import { CouponStatus, type Coupon } from '../../../worker/protocol/account.ts'
import { zhCN } from '../../i18n/zh-CN.ts'
import { formatTime } from '../devices/format-time.ts'
import { couponFace, couponTerms } from './display.ts'

const t = zhCN.account.coupons

export const CouponCard = ({ coupon }: { coupon: Coupon }) => {
  const face = couponFace(coupon)
  const off = coupon.status !== CouponStatus.effective
  return (
    <div className={off ? 'ac-coupon ac-coupon-off' : 'ac-coupon'} data-testid="coupon-item" data-id={coupon.id} data-status={coupon.status}>
      <div className="ac-coupon-face">
        <strong>{face.amount}</strong>
        <span>{face.unit}</span>
      </div>
      <div className="ac-coupon-body">
        <div className="ac-coupon-name">
          <span data-testid="coupon-name">{coupon.couponName}</span>
          <span className="ac-coupon-tag">{t.status[coupon.status] ?? ''}</span>
        </div>
        <div className="ac-coupon-terms">{couponTerms(coupon).join(' · ')}</div>
        <div className="ac-coupon-time">{t.validUntil(formatTime(coupon.endTime))}</div>
      </div>
    </div>
  )
}
