/*
 * sphinx-live: one warm PocketSphinx decoder driven utterance by utterance, for live calls.
 *
 * The caller decides where an utterance starts and ends (its own voice detection and
 * turn-taking), so the final words are ready the moment the turn ends, and live captions are
 * the decoder's running hypothesis instead of fresh decodes.
 *
 * stdin: frames of [1 byte type][uint32 little-endian length][payload]
 *   'B' begin an utterance      'A' audio: 16 kHz mono int16 little-endian samples
 *   'P' ask for the hypothesis so far      'E' end the utterance
 * stdout: one line per frame, in order, so the caller always knows how much is still queued:
 *   "R 2" once the models are loaded (2: this protocol, with the acknowledgements),
 *   "a" for each 'B' and 'A' once it is decoded, "P <words>" for each 'P', "F <words>" for
 *   each 'E'. The caller uses the acknowledgements to hand out audio by urgency (a call whose
 *   turn is ending first) instead of letting every decoder's pipe fill and share the cores.
 * Any other argument is a pocketsphinx option (-hmm, -lm, -dict, -beam ...).
 */
#include <pocketsphinx.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PAYLOAD (1 << 20)

static int read_full(void *buf, size_t n) {
    return fread(buf, 1, n, stdin) == n;
}

static void answer(char kind, const char *hyp) {
    if (hyp == NULL)
        printf("%c\n", kind);
    else
        printf("%c %s\n", kind, hyp);
    fflush(stdout);
}

int main(int argc, char *argv[]) {
    cmd_ln_t *config = cmd_ln_parse_r(NULL, ps_args(), argc - 1, argv + 1, TRUE);
    if (config == NULL) {
        printf("X bad arguments\n");
        return 2;
    }
    ps_decoder_t *ps = ps_init(config);
    if (ps == NULL) {
        printf("X the speech models could not be loaded\n");
        return 3;
    }
    printf("R 2\n");
    fflush(stdout);

    static unsigned char payload[MAX_PAYLOAD];
    int in_utt = 0;
    unsigned char header[5];
    while (read_full(header, sizeof header)) {
        uint32_t len = (uint32_t)header[1] | (uint32_t)header[2] << 8 | (uint32_t)header[3] << 16 |
                       (uint32_t)header[4] << 24;
        if (len > MAX_PAYLOAD || (len && !read_full(payload, len))) break;
        int32 score;
        switch (header[0]) {
        case 'B':
            if (in_utt) ps_end_utt(ps);
            in_utt = ps_start_utt(ps) == 0;
            answer('a', NULL);
            break;
        case 'A':
            if (in_utt && len >= 2) {
                /* Samples are little-endian on the wire; x86 and arm64 hosts are too. */
                ps_process_raw(ps, (int16 const *)payload, len / 2, FALSE, FALSE);
            }
            answer('a', NULL);
            break;
        case 'P':
            answer('P', in_utt ? ps_get_hyp(ps, &score) : "");
            break;
        case 'E':
            if (in_utt) {
                ps_end_utt(ps);
                in_utt = 0;
                answer('F', ps_get_hyp(ps, &score));
            } else {
                answer('F', "");
            }
            break;
        default:
            printf("X unknown frame type\n");
            fflush(stdout);
            ps_free(ps);
            cmd_ln_free_r(config);
            return 4;
        }
    }
    ps_free(ps);
    cmd_ln_free_r(config);
    return 0;
}
