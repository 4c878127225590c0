import '@plankit/react/styles.css';
import './app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';

const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root');
const chatId = new URLSearchParams(window.location.search).get('chat') ?? 'demo';
createRoot(container).render(
  <StrictMode>
    <App chatId={chatId} />
  </StrictMode>,
);
