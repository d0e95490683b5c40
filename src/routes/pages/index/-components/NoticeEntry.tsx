// The bell on home leading to the notifications, with the unread total as its badge.
import { Badge } from 'antd-mobile'
import { zhCN } from '../../../../i18n/zh-CN.ts'

export const NoticeEntry = ({ unread, onOpen }: { unread: number; onOpen: () => void }) => (
  <button
    type="button"
    className="home-notices"
    data-testid="home-notifications"
    data-unread={unread}
    onClick={onOpen}
  >
    {/* the badge is read as part of the name below, after the visible label (the name starts with what is shown) */}
    <Badge aria-hidden content={unread > 0 ? (unread > 99 ? '99+' : String(unread)) : null}>
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden>
        <path
          d="M12 3a6 6 0 0 0-6 6v3.6L4.4 15.4A1 1 0 0 0 5.3 17h13.4a1 1 0 0 0 .9-1.6L18 12.6V9a6 6 0 0 0-6-6Zm-2.5 15.5a2.5 2.5 0 0 0 5 0"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinejoin="round"
        />
      </svg>
    </Badge>
    <span>{zhCN.home.notifications}</span>
    <span className="visually-hidden">，{zhCN.home.unread(unread)}</span>
  </button>
)
