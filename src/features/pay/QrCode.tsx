// A QR code image of `text` (the `qrcode` library), drawn as a PNG data URL so it can be long-pressed and saved.
import QRCode from 'qrcode'
import { useEffect, useState } from 'react'

type Drawn = { text: string; src: string | null }

export const QrCode = ({ text, alt, size = 200, failedText, testId }: { text: string; alt: string; size?: number; failedText: string; testId?: string }) => {
  const [drawn, setDrawn] = useState<Drawn | null>(null)
  useEffect(() => {
    let live = true
    QRCode.toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, width: size * 2 }).then(
      (src) => live && setDrawn({ text, src }),
      () => live && setDrawn({ text, src: null }),
    )
    return () => {
      live = false
    }
  }, [text, size])
  if (!drawn || drawn.text !== text) return <div className="pay-qr" style={{ width: size, height: size }} aria-busy="true" />
  if (drawn.src === null) return <p className="pay-muted" role="alert">{failedText}</p>
  return <img className="pay-qr" src={drawn.src} alt={alt} width={size} height={size} data-testid={testId} />
}
