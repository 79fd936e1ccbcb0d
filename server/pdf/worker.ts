import { renderAudioReport, type ReportInput } from './report';
import { runWorker } from '../workers/worker-main';

/** A report worker thread: lays out and compresses one PDF per task, off the request thread. */
runWorker<ReportInput, Uint8Array>((input) => renderAudioReport(input));
