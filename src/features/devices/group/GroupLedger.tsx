// The ledger of group commands (the projection's `group` slice, the same in every tab): each recent command with a
// result per phone (✓, ✗ with the server's reason, 等待中) and 重试失败项, which sends the failed phones again as a
// new command. Server text (names, reasons) is rendered as text.
import { Button, Dialog } from 'antd-mobile'
import { memo, useState } from 'react'
import { failedPhones, outcomeOf, type GroupCommandRecord } from '../../../../worker/protocol/projection/group.ts'
import { devicesZhCN } from '../../../i18n/zh-CN.devices.ts'
import { useAppStore } from '../../../store/index.ts'

const t = devicesZhCN.group

const timeOf = (at: number): string => {
  const d = new Date(at)
  const two = (n: number) => String(n).padStart(2, '0')
  return `${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`
}

const Record = memo(({ record, open, onToggle, onRetry }: {
  record: GroupCommandRecord
  open: boolean
  onToggle: () => void
  onRetry: (record: GroupCommandRecord, failed: ReadonlyArray<number>) => void
}) => {
  const c = record.command
  const outcomes = c.phones.map((p) => ({ phone: p, outcome: outcomeOf(record, p.userCardId) }))
  const ok = outcomes.filter((o) => o.outcome.kind === 'ok').length
  const failed = failedPhones(record)
  const pending = outcomes.length - ok - failed.length
  const detail = c.action === 'text' || c.action === 'clipboard' ? c.text : c.action === 'file' ? c.fileName : null
  return (
    <li className="group-ledger-item" data-testid="group-ledger-item" data-command-id={c.id} data-pending={pending} data-failed={failed.length} data-ok={ok}>
      <div className="group-ledger-head">
        <span className="group-ledger-action">
          {c.retryOf !== null && <span className="group-ledger-retry-tag">{t.retryOf}</span>}
          {t.actionNames[c.action]}
          {detail !== null && detail !== '' && <span className="group-ledger-detail">「{detail}」</span>}
        </span>
        <span className="group-ledger-time">{timeOf(c.issuedAt)}</span>
      </div>
      <div className="group-ledger-summary">
        <span data-testid="group-ledger-summary">{t.summary(ok, failed.length, pending)}</span>
        <span className="group-ledger-buttons">
          {failed.length > 0 && (
            <Button size="mini" color="primary" fill="outline" data-testid="group-retry-failed" onClick={() => onRetry(record, failed)}>{t.retryFailed}</Button>
          )}
          <Button size="mini" fill="none" data-testid="group-ledger-toggle" onClick={onToggle}>{open ? t.hideDetail : t.detail}</Button>
        </span>
      </div>
      {open && (
        <ul className="group-grid" data-testid="group-result-grid">
          {outcomes.map(({ phone, outcome }) => (
            <li
              key={phone.userCardId}
              className={`group-cell group-cell-${outcome.kind}`}
              data-testid="group-result-cell"
              data-user-card-id={phone.userCardId}
              data-outcome={outcome.kind}
            >
              <span className="group-cell-mark" aria-hidden="true">{outcome.kind === 'ok' ? '✓' : outcome.kind === 'failed' ? '✗' : '…'}</span>
              <span className="group-cell-name">{phone.diskName}</span>
              <span className="group-cell-msg">
                {outcome.kind === 'ok' ? `${t.ok} ${t.took(outcome.ms)}` : outcome.kind === 'failed' ? outcome.msg : t.pending}
              </span>
            </li>
          ))}
        </ul>
      )}
    </li>
  )
})

export const GroupLedger = ({ onRetry }: { onRetry: (record: GroupCommandRecord, failed: ReadonlyArray<number>) => void }) => {
  const commands = useAppStore((s) => s.group?.commands ?? [])
  // the newest is open; a tab's own choice for the others
  const [toggled, setToggled] = useState<ReadonlySet<string>>(new Set())
  const confirmRetry = async (record: GroupCommandRecord, failed: ReadonlyArray<number>) => {
    if (record.command.action === 'reset') {
      const ok = await Dialog.confirm({ title: t.resetConfirmTitle, content: t.resetConfirm(failed.length), confirmText: devicesZhCN.common.confirm, cancelText: devicesZhCN.common.cancel })
      if (!ok) return
    }
    onRetry(record, failed)
  }
  return (
    <section className="group-section" aria-labelledby="group-ledger-title">
      <h2 className="group-section-title" id="group-ledger-title">{t.ledger}</h2>
      {commands.length === 0 && <p className="dv-hint" data-testid="group-ledger-empty">{t.ledgerEmpty}</p>}
      <ul className="group-ledger" data-testid="group-ledger">
        {commands.map((record, i) => {
          const id = record.command.id
          const open = (i === 0) !== toggled.has(id)
          return (
            <Record
              key={id}
              record={record}
              open={open}
              onToggle={() => setToggled((s) => {
                const next = new Set(s)
                if (next.has(id)) next.delete(id)
                else next.add(id)
                return next
              })}
              onRetry={(r, f) => void confirmRetry(r, f)}
            />
          )
        })}
      </ul>
    </section>
  )
}
