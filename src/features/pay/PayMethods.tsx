// The payment methods a purchase offers: Alipay H5 and WeChat H5 (leave for the provider's page), the Alipay QR code
// (pay-order page) and star coins. The WeChat mini-program payment is never offered in a browser.
import { Radio } from 'antd-mobile'
import { zhCN } from '../../i18n/zh-CN.ts'
import type { PayMethod } from '../../../worker/protocol/pricing.ts'

const t = zhCN.pay

export const PAY_METHODS: ReadonlyArray<PayMethod> = ['alipayH5', 'wxpayH5', 'alipayQr', 'starCoin']

const hintOf: Partial<Record<PayMethod, string>> = { alipayQr: t.alipayQrHint, starCoin: t.starCoinHint }

/** testIdPrefix: `buy` gives `buy-method-alipayH5` and so on. */
export const PayMethods = ({ value, onChange, testIdPrefix }: { value: PayMethod; onChange: (m: PayMethod) => void; testIdPrefix: string }) => (
  <Radio.Group value={value} onChange={(v) => onChange(v as PayMethod)}>
    <div className="pay-methods">
      {PAY_METHODS.map((m) => (
        <Radio key={m} value={m} data-testid={`${testIdPrefix}-method-${m}`}>
          {t[m]}
          {hintOf[m] && <span className="pay-muted">（{hintOf[m]}）</span>}
        </Radio>
      ))}
    </div>
  </Radio.Group>
)
