// The viewer's clipboard sheet: the phone's last copy offered to this device, and text sent to the phone's clipboard.
import { Button, Popup, TextArea, Toast } from 'antd-mobile'
import { useState } from 'react'
import { devicesZhCN } from '../../../i18n/zh-CN.devices.ts'
import { TEXTAREA_MAX_LENGTH } from '../../../ui/kit/defaults.ts'

const t = devicesZhCN.viewer

export const ViewerClipboard = (p: {
  readonly visible: boolean
  readonly phoneText: string | null
  readonly onClose: () => void
  readonly onSend: (text: string) => void
}) => {
  const [text, setText] = useState('')
  const copyToLocal = async () => {
    if (p.phoneText === null) return
    try {
      await navigator.clipboard.writeText(p.phoneText)
      Toast.show({ content: t.copiedToLocal })
    } catch {
      Toast.show({ content: t.copyFailed })
    }
  }
  return (
    <Popup visible={p.visible} onMaskClick={p.onClose} bodyStyle={{ borderRadius: '12px 12px 0 0', padding: 16 }}>
      <div className="viewer-clipboard" data-testid="viewer-clipboard-sheet">
        <h3>{t.clipboardTitle}</h3>
        <p className="viewer-clipboard-phone" data-testid="viewer-phone-clipboard">{p.phoneText ?? t.noPhoneClipboard}</p>
        <Button size="small" disabled={p.phoneText === null} data-testid="viewer-copy-local" onClick={() => void copyToLocal()}>{t.copyToLocal}</Button>
        <TextArea data-testid="viewer-clipboard-input" aria-label={t.pastePlaceholder} placeholder={t.pastePlaceholder}
          value={text} onChange={setText} maxLength={TEXTAREA_MAX_LENGTH} rows={3} />
        <Button color="primary" block disabled={text === ''} data-testid="viewer-clipboard-send" onClick={() => {
          p.onSend(text)
          setText('')
          Toast.show({ content: t.sentToPhone })
        }}>{t.pasteToPhone}</Button>
      </div>
    </Popup>
  )
}
