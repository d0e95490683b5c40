// The home's 列表 / 宫格 switch and, for 宫格, the columns (2, 3 or 4): a client preference of this browser, kept by the
// core (StorageKey.homeView), so every tab and a reload show the same view.
import { useCallback, useEffect, useState } from 'react'
import type { CoreApi } from '../../../../../worker/protocol/commands.ts'
import { StorageKey } from '../../../../../worker/protocol/storage-keys.ts'
import { zhCN } from '../../../../i18n/zh-CN.ts'

const t = zhCN.home.wall

export interface HomeView {
  readonly mode: 'list' | 'grid'
  readonly columns: 2 | 3 | 4
}
const DEFAULT_VIEW: HomeView = { mode: 'list', columns: 3 }
const COLUMNS = [2, 3, 4] as const

export const parseHomeView = (raw: string | null): HomeView => {
  if (raw === null) return DEFAULT_VIEW
  try {
    const v = JSON.parse(raw) as Partial<HomeView>
    return {
      mode: v.mode === 'grid' ? 'grid' : 'list',
      columns: (COLUMNS as ReadonlyArray<unknown>).includes(v.columns) ? (v.columns as HomeView['columns']) : DEFAULT_VIEW.columns,
    }
  } catch {
    return DEFAULT_VIEW
  }
}

/** the stored view (null until read), and a setter that stores it. */
export const useHomeView = (api: CoreApi): [HomeView | null, (v: HomeView) => void] => {
  const [view, setViewState] = useState<HomeView | null>(null)
  useEffect(() => {
    let live = true
    void api.getLocal(StorageKey.homeView).then(
      (raw) => live && setViewState(parseHomeView(raw)),
      () => live && setViewState(DEFAULT_VIEW),
    )
    return () => { live = false }
  }, [api])
  const setView = useCallback((v: HomeView) => {
    setViewState(v)
    void api.setLocal(StorageKey.homeView, JSON.stringify(v))
  }, [api])
  return [view, setView]
}

/**
 * Until the stored view is read (a round trip to the core) the home shows the list and the bar keeps its place unseen,
 * so that neither the stored list's first paint nor the layout waits on the preference.
 */
export const ViewBar = ({ view: stored, onChange }: { view: HomeView | null; onChange: (v: HomeView) => void }) => {
  const view = stored ?? DEFAULT_VIEW
  return (
  <div className="home-view-bar" data-testid="home-view-bar" style={stored === null ? { visibility: 'hidden' } : undefined}>
    <div className="home-view-group" role="group" aria-label={t.view}>
      {(['list', 'grid'] as const).map((mode) => (
        <button key={mode} type="button" aria-pressed={view.mode === mode} data-testid={`home-view-${mode}`} onClick={() => onChange({ ...view, mode })}>
          {t[mode]}
        </button>
      ))}
    </div>
    {view.mode === 'grid' && (
      <div className="home-view-group home-view-columns" role="group" aria-label={t.columns}>
        {COLUMNS.map((n) => (
          <button key={n} type="button" aria-pressed={view.columns === n} data-testid={`home-columns-${n}`} onClick={() => onChange({ ...view, columns: n })}>
            {t.columnsOf(n)}
          </button>
        ))}
      </div>
    )}
  </div>
  )
}
