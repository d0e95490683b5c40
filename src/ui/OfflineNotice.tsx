// The offline notice of a screen showing stored data: what is shown, how old it is, and why actions are disabled.
// Its id is what disabled actions point to (aria-describedby) for their reason.
import { zhCN } from '../i18n/zh-CN.ts'

export const OFFLINE_NOTICE_ID = 'offline-notice'

const sameDay = (a: Date, b: Date): boolean => a.toDateString() === b.toDateString()

const fetchedText = (fetchedAt: number | null): string => {
  if (fetchedAt === null) return ''
  const at = new Date(fetchedAt)
  const time = at.toLocaleTimeString('zh-CN', { hour: '2-digit', minute: '2-digit', hour12: false })
  const day = sameDay(at, new Date()) ? '' : `${at.getMonth() + 1}月${at.getDate()}日 `
  return zhCN.shell.offlineAt(`${day}${time}`)
}

export const OfflineNotice = ({ fetchedAt }: { fetchedAt: number | null }) => (
  <div className="offline-notice" id={OFFLINE_NOTICE_ID} role="status" data-testid="offline-notice">
    <p>
      {zhCN.shell.offline}
      {fetchedText(fetchedAt)}
    </p>
    <p>{zhCN.shell.offlineActions}</p>
  </div>
)
