/*
 * sphinx-batch: decodes one 16 kHz mono 16-bit WAV file the way pocketsphinx_continuous
 * -infile ... -time yes does (voice detection splits utterances; one hypothesis line, then
 * "<s> start end conf", one "word start end conf" line per word and "</s>", times in seconds),
 * and can interpolate a second language model with the main one, which the Debian command
 * line tool cannot.
 *
 * Options of its own (removed before the rest go to pocketsphinx: -hmm, -lm, -dict, -beam ...):
 *   -infile FILE      the WAV file to decode; without it, WAV paths are read from standard
 *                     input, one per line, and each file's lines end with "#end" (preceded by
 *                     "#error N" when it could not be read): one warm decoder for all the
 *                     chunks of a recording instead of a model load per chunk
 *   -mixlm FILE       a second language model (ARPA or binary) interpolated with -lm
 *   -mixweight W      its weight, 0 < W < 1 (default 0.2)
 *   -adddict FILE     extra pronunciations ("word PH1 PH2 ...", one per line) for words the
 *                     main dictionary lacks
 *   -cmnfirst yes     start cepstral mean normalisation from the mean of the recording's own
 *                     speech frames (a first, feature-only pass over the file) instead of the
 *                     model's fixed -cmninit: the decoder's live mean otherwise takes the first
 *                     seconds of every chunk to settle, and those words are decoded with the
 *                     wrong mean (docs/benchmarks.md)
 */
#include <pocketsphinx.h>
#include <sphinxbase/ngram_model.h>
#include <sphinxbase/fe.h>
#include <sphinxbase/feat.h>
#include <sphinxbase/cmn.h>
#include <sphinxbase/ckd_alloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ps_decoder_t *ps;

static void print_utterance(int32 frame_rate) {
    int32 score;
    const char *hyp = ps_get_hyp(ps, &score);
    if (hyp == NULL) return;
    printf("%s\n", hyp);
    for (ps_seg_t *it = ps_seg_iter(ps); it != NULL; it = ps_seg_next(it)) {
        int sf, ef;
        ps_seg_frames(it, &sf, &ef);
        int32 pprob = ps_seg_prob(it, NULL, NULL, NULL);
        float conf = logmath_exp(ps_get_logmath(ps), pprob);
        printf("%s %.3f %.3f %f\n", ps_seg_word(it), (float)sf / frame_rate, (float)ef / frame_rate, conf);
    }
    fflush(stdout);
}

/* Seeks to the samples of a RIFF/WAVE file; returns 0 on success. */
static int skip_wav_header(FILE *f) {
    unsigned char hdr[12];
    if (fread(hdr, 1, 12, f) != 12 || memcmp(hdr, "RIFF", 4) || memcmp(hdr + 8, "WAVE", 4)) return -1;
    for (;;) {
        unsigned char chunk[8];
        if (fread(chunk, 1, 8, f) != 8) return -1;
        uint32_t len = (uint32_t)chunk[4] | (uint32_t)chunk[5] << 8 | (uint32_t)chunk[6] << 16 |
                       (uint32_t)chunk[7] << 24;
        if (!memcmp(chunk, "data", 4)) return 0;
        if (fseek(f, (long)len + (len & 1), SEEK_CUR) != 0) return -1;
    }
}

static int add_words(const char *path) {
    FILE *f = fopen(path, "r");
    if (f == NULL) return -1;
    char line[1024], pending[2048] = "";
    while (fgets(line, sizeof line, f)) {
        char *nl = strpbrk(line, "\r\n");
        if (nl) *nl = 0;
        char *sp = strchr(line, ' ');
        if (line[0] == 0 || line[0] == '#' || sp == NULL) continue;
        *sp = 0;
        /* Words the dictionary already has keep their pronunciations. */
        if (ps_lookup_word(ps, line) != NULL) continue;
        /* The search is rebuilt once, with the last word (update = TRUE). */
        if (pending[0]) {
            char *psp = strchr(pending, ' ');
            *psp = 0;
            ps_add_word(ps, pending, psp + 1, FALSE);
        }
        char *phones = sp + 1;
        while (*phones == ' ') phones++;
        snprintf(pending, sizeof pending, "%s %s", line, phones);
    }
    fclose(f);
    if (pending[0]) {
        char *psp = strchr(pending, ' ');
        *psp = 0;
        ps_add_word(ps, pending, psp + 1, TRUE);
    }
    return 0;
}

/*
 * Reads all samples after the WAV header. Recordings reach this helper in chunks of at most a
 * few minutes, so holding one in memory is cheap. Returns the sample count, or -1.
 */
static long read_samples(FILE *f, int16 **out) {
    size_t cap = 16000 * 32, n = 0, k;
    int16 *buf = malloc(cap * sizeof *buf);
    if (buf == NULL) return -1;
    while ((k = fread(buf + n, sizeof(int16), cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            int16 *grown = realloc(buf, 2 * cap * sizeof *buf);
            if (grown == NULL) {
                free(buf);
                return -1;
            }
            buf = grown;
            cap *= 2;
        }
    }
    *out = buf;
    return (long)n;
}

/*
 * Sets the decoder's live cepstral mean to the mean of the frames its front end keeps (speech,
 * with -remove_silence) over the whole recording. A separate front end with the decoder's own
 * settings computes them, so the decoder's voice detection state is untouched. Returns the
 * number of frames averaged (0: the model's -cmninit stays).
 */
static int32 cmn_from_recording(cmd_ln_t *config, const int16 *samples, size_t nsamples) {
    fe_t *fe = fe_init_auto_r(config);
    if (fe == NULL) return 0;
    int ncep = fe_get_output_size(fe);
    mfcc_t **cep = (mfcc_t **)ckd_calloc_2d(256, ncep, sizeof(mfcc_t));
    double *sum = calloc((size_t)ncep, sizeof *sum);
    int32 total = 0;
    const int16 *p = samples;
    size_t left = nsamples;
    fe_start_utt(fe);
    while (left > 0) {
        int32 nfr = 256;
        size_t before = left;
        if (fe_process_frames(fe, &p, &left, cep, &nfr, NULL) < 0) break;
        for (int32 i = 0; i < nfr; i++)
            for (int j = 0; j < ncep; j++) sum[j] += cep[i][j];
        total += nfr;
        if (nfr == 0 && left == before) break;
    }
    int32 last = 0;
    fe_end_utt(fe, cep[0], &last);
    for (int32 i = 0; i < last; i++)
        for (int j = 0; j < ncep; j++) sum[j] += cep[0][j];
    total += last;
    feat_t *feat = ps_get_feat(ps);
    if (total > 0 && feat != NULL && feat->cmn_struct != NULL && feat->cmn_struct->veclen == ncep) {
        mfcc_t *mean = calloc((size_t)ncep, sizeof *mean);
        for (int j = 0; j < ncep; j++) mean[j] = (mfcc_t)(sum[j] / total);
        cmn_live_set(feat->cmn_struct, mean);
        free(mean);
    } else {
        total = 0;
    }
    free(sum);
    ckd_free_2d((void **)cep);
    fe_free(fe);
    return total;
}

/* Decodes one WAV file and prints its utterances; returns 0, or 4 when it cannot be read. */
static int decode_file(cmd_ln_t *config, const char *path, int cmnfirst, int32 frame_rate) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "not a readable WAV file\n");
        return 4;
    }
    if (skip_wav_header(f) != 0) {
        fclose(f);
        fprintf(stderr, "not a readable WAV file\n");
        return 4;
    }
    int16 *samples = NULL;
    long nsamples = read_samples(f, &samples);
    fclose(f);
    if (nsamples < 0) {
        fprintf(stderr, "out of memory\n");
        return 4;
    }
    if (cmnfirst) cmn_from_recording(config, samples, (size_t)nsamples);
    /* Each file is a stream of its own: times from its start, noise level measured afresh. */
    ps_start_stream(ps);
    int utt_started = 0;
    ps_start_utt(ps);
    for (long at = 0; at < nsamples; at += 2048) {
        size_t k = (size_t)(nsamples - at < 2048 ? nsamples - at : 2048);
        ps_process_raw(ps, samples + at, k, FALSE, FALSE);
        int in_speech = ps_get_in_speech(ps);
        if (in_speech && !utt_started) utt_started = 1;
        if (!in_speech && utt_started) {
            ps_end_utt(ps);
            print_utterance(frame_rate);
            ps_start_utt(ps);
            utt_started = 0;
        }
    }
    ps_end_utt(ps);
    if (utt_started) print_utterance(frame_rate);
    free(samples);
    fflush(stdout);
    return 0;
}

int main(int argc, char *argv[]) {
    const char *infile = NULL, *mainlm = NULL, *mixlm = NULL, *adddict = NULL;
    int cmnfirst = 0;
    float mixweight = 0.2f;
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    int n = 0;
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && !strcmp(argv[i], "-infile")) infile = argv[++i];
        else if (i + 1 < argc && !strcmp(argv[i], "-mixlm")) mixlm = argv[++i];
        /* With a second model, -lm is loaded here, after the dictionary is complete, so the
           search is built once instead of three times. */
        else if (i + 1 < argc && !strcmp(argv[i], "-lm")) mainlm = argv[++i];
        else if (i + 1 < argc && !strcmp(argv[i], "-mixweight")) mixweight = (float)atof(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "-adddict")) adddict = argv[++i];
        else if (i + 1 < argc && !strcmp(argv[i], "-cmnfirst")) cmnfirst = !strcmp(argv[++i], "yes");
        else rest[n++] = argv[i];
    }
    if (mainlm != NULL && mixlm == NULL) {
        rest[n++] = "-lm";
        rest[n++] = (char *)mainlm;
    }
    if (mixweight <= 0 || mixweight >= 1) {
        fprintf(stderr, "usage: sphinx-batch [-infile FILE] [-mixlm FILE [-mixweight W]] [-adddict FILE] [-cmnfirst yes] [pocketsphinx options]\n");
        return 2;
    }
    cmd_ln_t *config = cmd_ln_parse_r(NULL, ps_args(), n, rest, TRUE);
    if (config == NULL) {
        fprintf(stderr, "bad arguments\n");
        return 2;
    }
    ps = ps_init(config);
    if (ps == NULL) {
        fprintf(stderr, "the speech models could not be loaded\n");
        return 3;
    }
    if (adddict != NULL && add_words(adddict) < 0) {
        fprintf(stderr, "the extra dictionary could not be read\n");
        return 3;
    }
    if (mixlm != NULL) {
        logmath_t *lmath = ps_get_logmath(ps);
        ngram_model_t *models[2];
        models[0] = mainlm ? ngram_model_read(config, mainlm, NGRAM_AUTO, lmath) : NULL;
        models[1] = ngram_model_read(config, mixlm, NGRAM_AUTO, lmath);
        if (models[0] == NULL || models[1] == NULL) {
            fprintf(stderr, "a language model could not be loaded\n");
            return 3;
        }
        char *names[2] = {"general", "domain"};
        float32 weights[2] = {1.0f - mixweight, mixweight};
        ngram_model_t *set = ngram_model_set_init(config, models, names, weights, 2);
        if (set == NULL || ps_set_lm(ps, "mixed", set) < 0 || ps_set_search(ps, "mixed") < 0) {
            fprintf(stderr, "the language models could not be combined\n");
            return 3;
        }
    }

    int32 frame_rate = cmd_ln_int32_r(config, "-frate");
    int status = 0;
    if (infile != NULL) {
        status = decode_file(config, infile, cmnfirst, frame_rate);
    } else {
        /* One warm decoder for many files: a path per line in, the file's lines and "#end" out. */
        char line[4096];
        while (fgets(line, sizeof line, stdin)) {
            char *nl = strpbrk(line, "\r\n");
            if (nl) *nl = 0;
            if (line[0] == 0) continue;
            int rc = decode_file(config, line, cmnfirst, frame_rate);
            if (rc != 0) printf("#error %d\n", rc);
            printf("#end\n");
            fflush(stdout);
        }
    }
    ps_free(ps);
    cmd_ln_free_r(config);
    free(rest);
    return status;
}
