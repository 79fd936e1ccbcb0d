import { AlertCircle, Loader2, ShieldCheck, Upload } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Card, CardContent } from '@client/components/ui/card';
import { Progress } from '@client/components/ui/progress';
import { DropZone } from './drop-zone';

export interface UploadCardProps {
  file: File | null;
  uploading: boolean;
  uploadPercent: number;
  uploadError: string | null;
  retentionDays: number;
  onFile: (file: File) => void;
  onUpload: () => void;
}

/** Choosing a recording and sending it: the drop zone, the consent line, the upload's progress. */
export function UploadCard({
  file,
  uploading,
  uploadPercent,
  uploadError,
  retentionDays,
  onFile,
  onUpload,
}: UploadCardProps) {
  return (
    <Card>
      <CardContent className="space-y-4 pt-5 sm:pt-6">
        <DropZone file={file} disabled={uploading} onFile={onFile} />
        <p className="flex items-start gap-2 text-xs text-slate-600" data-testid="upload-consent">
          <ShieldCheck className="mt-0.5 size-3.5 shrink-0 text-brand-600" aria-hidden="true" />
          <span>
            Only upload a call the customer agreed to have recorded. Recordings are kept for {retentionDays}{' '}
            days, then deleted.
          </span>
        </p>
        {uploadError && (
          <Alert variant="destructive">
            <AlertCircle aria-hidden="true" />
            <AlertTitle>Upload failed</AlertTitle>
            <AlertDescription>{uploadError}</AlertDescription>
          </Alert>
        )}
        {uploading && (
          <div className="space-y-1.5">
            <div className="flex justify-between text-sm text-slate-600">
              <span>Uploading</span>
              <span className="tabular-nums">{uploadPercent}%</span>
            </div>
            <Progress value={uploadPercent} label="Upload progress" />
          </div>
        )}
        <Button size="lg" className="w-full" disabled={!file || uploading} onClick={onUpload}>
          {uploading ? (
            <Loader2 className="animate-spin" aria-hidden="true" />
          ) : (
            <Upload aria-hidden="true" />
          )}
          {uploading ? 'Uploading & Transcribing...' : 'Upload & Analyze'}
        </Button>
      </CardContent>
    </Card>
  );
}
