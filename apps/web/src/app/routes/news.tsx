import { NewsPage } from '../../features/news/components/news-page.tsx';

/** `/news` — the whole News area (S9: editors live here; drawers are addressed by `?post=`). */
export function Component() {
  return <NewsPage />;
}
