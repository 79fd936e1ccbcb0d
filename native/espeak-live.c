/*
 * espeak-live: a long-lived espeak-ng synthesiser. Starting espeak-ng per sentence costs a
 * process start and a voice load on every sentence, and spawning from a large server process
 * blocks its event loop for tens of milliseconds; one of these per core serves every call.
 *
 * stdin: one request per line: "<voice>\t<rate>\t<pitch>\t<text>\n" (text without newlines;
 *        voice like en-us+f3, rate in words per minute, pitch 0-99).
 * stdout: "R" + uint32 sample rate once ready; then per request, in order, frames of
 *         [1 byte type][uint32 little-endian length][payload]: 'A' mono int16 little-endian
 *         PCM (about 100 ms each), then 'D' (length 0) when the sentence is done, or 'X' with a
 *         message when it could not be spoken.
 */
#include <espeak-ng/speak_lib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void frame(char type, const void *data, uint32_t len) {
    unsigned char header[5] = {(unsigned char)type, len & 0xff, (len >> 8) & 0xff, (len >> 16) & 0xff,
                               (len >> 24) & 0xff};
    fwrite(header, 1, sizeof header, stdout);
    if (len) fwrite(data, 1, len, stdout);
}

static int on_audio(short *wav, int samples, espeak_EVENT *events) {
    (void)events;
    if (wav && samples > 0) {
        frame('A', wav, (uint32_t)samples * 2);
        fflush(stdout);
    }
    return 0;
}

int main(void) {
    int rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 100, NULL, 0);
    if (rate <= 0) {
        const char *msg = "espeak-ng could not start";
        frame('X', msg, (uint32_t)strlen(msg));
        return 2;
    }
    espeak_SetSynthCallback(on_audio);
    uint32_t sr = (uint32_t)rate;
    frame('R', &sr, 4);
    fflush(stdout);

    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, stdin)) > 0) {
        if (line[n - 1] == '\n') line[--n] = '\0';
        char *voice = strtok(line, "\t");
        char *wpm = strtok(NULL, "\t");
        char *pitch = strtok(NULL, "\t");
        char *text = strtok(NULL, "");
        if (!voice || !wpm || !pitch || !text) {
            const char *msg = "malformed request";
            frame('X', msg, (uint32_t)strlen(msg));
            fflush(stdout);
            continue;
        }
        if (espeak_SetVoiceByName(voice) != EE_OK) {
            const char *msg = "unknown voice";
            frame('X', msg, (uint32_t)strlen(msg));
            fflush(stdout);
            continue;
        }
        espeak_SetParameter(espeakRATE, atoi(wpm), 0);
        espeak_SetParameter(espeakPITCH, atoi(pitch), 0);
        espeak_Synth(text, strlen(text) + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8, NULL, NULL);
        espeak_Synchronize();
        frame('D', NULL, 0);
        fflush(stdout);
    }
    free(line);
    espeak_Terminate();
    return 0;
}
