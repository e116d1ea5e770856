// @ts-check
// The real encryption worker, checked to hand every chunk's request buffers back with its reply
// (spent-buffers.js exits the thread otherwise). Static imports: the check's listener is first.
import './spent-buffers.js';
import '../../../src/encryption/worker.js';
