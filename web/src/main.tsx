import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app';
import './index.css';

// Spec section 8: unhandled rejections and global errors are only logged.
window.addEventListener('unhandledrejection', (event) => console.error('Unhandled rejection', event.reason));
window.addEventListener('error', (event) => console.error('Unhandled error', event.error ?? event.message));

const root = document.getElementById('root');
if (!root) throw new Error('index.html must contain #root');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
