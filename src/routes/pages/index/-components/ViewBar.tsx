// The home's 列表 / 宫格 switch and, for 宫格, the columns (2, 3 or 4): a preference of this browser, the core's shared
// state (worker/protocol/projection/home-view.ts), so every tab shows the same view and a reload paints it at once.
import { useCallback } from 'react'
import type { CoreApi } from '../../../../../worker/protocol/commands.ts'
import { HOME_COLUMNS, type HomeViewSlice as HomeView } from '../../../../../worker/protocol/projection/home-view.ts'
import { useAppStore } from '../../../../store/index.ts'
import { zhCN } from '../../../../i18n/zh-CN.ts'

const t = zhCN.home.wall

export type { HomeView }

/** the view every tab shows (shared state, painted with the stored list), and a setter that tells the core. */
export const useHomeView = (api: CoreApi): [HomeView, (v: HomeView) => void] => {
  const view = useAppStore((s) => s.homeView)
  const setView = useCallback((v: HomeView) => void api.setHomeView(v), [api])
  return [view, setView]
}

export const ViewBar = ({ view, onChange }: { view: HomeView; onChange: (v: HomeView) => void }) => (
  <div className="home-view-bar" data-testid="home-view-bar">
    <div className="home-view-group" role="group" aria-label={t.view}>
      {(['list', 'grid'] as const).map((mode) => (
        <button key={mode} type="button" aria-pressed={view.mode === mode} data-testid={`home-view-${mode}`} onClick={() => onChange({ ...view, mode })}>
          {t[mode]}
        </button>
      ))}
    </div>
    {view.mode === 'grid' && (
      <div className="home-view-group home-view-columns" role="group" aria-label={t.columns}>
        {HOME_COLUMNS.map((n) => (
          <button key={n} type="button" aria-pressed={view.columns === n} data-testid={`home-columns-${n}`} onClick={() => onChange({ ...view, columns: n })}>
            {t.columnsOf(n)}
          </button>
        ))}
      </div>
    )}
  </div>
)
