// The SPA's entry: the site's style sheet, the data layer of this build
// (esbuild's alias data-layer, see build.js) and the screens.
import '../../../resources/static/site.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { DataProvider } from 'data-layer';
import { App } from './App.jsx';

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <DataProvider>
      <App />
    </DataProvider>
  </StrictMode>,
);
