import { useRef, useState, type DragEvent } from 'react';
import { FileAudio, UploadCloud } from 'lucide-react';
import { formatMegabytes } from '@core/audio-validation';
import { Button } from '@client/components/ui/button';
import { cn } from '@client/lib/utils';
import { PICKER_ACCEPT } from './choose-file';

export interface DropZoneProps {
  file: File | null;
  disabled?: boolean;
  /** Receives the first file only (spec §5). */
  onFile: (file: File) => void;
}

export function DropZone({ file, disabled, onFile }: DropZoneProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const browse = () => inputRef.current?.click();
  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragging(false);
    if (disabled) return;
    const first = e.dataTransfer.files?.[0];
    if (first) onFile(first);
  };

  return (
    <div
      data-testid="drop-zone"
      onDragOver={(e) => {
        e.preventDefault();
        if (!disabled) setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      onClick={(e) => {
        if (!disabled && e.target === e.currentTarget) browse();
      }}
      className={cn(
        'flex cursor-pointer flex-col items-center gap-3 rounded-xl border-2 border-dashed px-4 py-10 text-center transition-colors',
        dragging ? 'border-brand-600 bg-brand-50' : 'border-slate-300 bg-slate-50 hover:border-slate-400',
        disabled && 'cursor-not-allowed opacity-60',
      )}
    >
      <span
        className="flex size-12 items-center justify-center rounded-full bg-white text-brand-600 shadow-sm"
        aria-hidden="true"
      >
        {file ? <FileAudio className="size-6" /> : <UploadCloud className="size-6" />}
      </span>
      <div className="pointer-events-none space-y-1">
        <p className="font-semibold text-slate-900">Drop your audio file here</p>
        <p className="text-sm text-slate-600">or click to browse (MP3, WAV, M4A, etc.)</p>
      </div>
      {file && (
        <p className="pointer-events-none text-sm text-slate-800" data-testid="chosen-file">
          <span className="font-medium break-all">{file.name}</span>{' '}
          <span className="text-slate-500">({formatMegabytes(file.size)})</span>
        </p>
      )}
      <input
        ref={inputRef}
        type="file"
        accept={PICKER_ACCEPT}
        className="sr-only"
        tabIndex={-1}
        aria-label="Audio file"
        disabled={disabled}
        onChange={(e) => {
          const first = e.target.files?.[0];
          if (first) onFile(first);
          e.target.value = '';
        }}
      />
      <Button type="button" variant="outline" disabled={disabled} onClick={browse}>
        {file ? 'Change File' : 'Browse Files'}
      </Button>
    </div>
  );
}
