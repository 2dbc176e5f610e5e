// The least a webhook sender built on libcurl does: COUNT POSTs of BYTES each to URL, PARALLEL at a time,
// each on an easy handle set up once and reused (so every POST after the first rides a kept-alive
// connection), with the headers a Standard Webhooks delivery carries. Nothing is built, signed, read or
// written per POST; the only work is libcurl's and the kernel's. Benchmarks/delivery.sh runs it beside the
// service against the same receiver.
//
//   post_floor URL COUNT PARALLEL BYTES
//
// Prints one line: POSTs/s and this process's CPU (user + system) per POST. Exits 1 if any POST fails or
// is not answered 2xx.
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

enum { maximumParallel = 256 };

static size_t discard(char *data, size_t size, size_t count, void *context) {
    (void)data;
    (void)context;
    return size * count;
}

static double seconds(struct timeval value) { return value.tv_sec + value.tv_usec / 1e6; }

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s URL COUNT PARALLEL BYTES\n", argv[0]);
        return 2;
    }
    const char *url = argv[1];
    long count = atol(argv[2]), parallel = atol(argv[3]), bytes = atol(argv[4]);
    if (count < 1 || parallel < 1 || parallel > maximumParallel || bytes < 0) {
        fprintf(stderr, "COUNT ≥ 1, 1 ≤ PARALLEL ≤ %d, BYTES ≥ 0\n", maximumParallel);
        return 2;
    }
    char *body = malloc(bytes + 1);
    memset(body, '.', bytes);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURLM *multi = curl_multi_init();
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, parallel * 2);
    struct curl_slist *headers = NULL;
    headers = curl_slist_append(headers, "Content-Type: application/json");
    headers = curl_slist_append(headers, "webhook-id: evt_0123456789abcdefghijklmn");
    headers = curl_slist_append(headers, "webhook-timestamp: 1764460800");
    headers = curl_slist_append(headers, "webhook-signature: v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=");
    CURL *handles[maximumParallel];
    long started = 0, finished = 0, failed = 0;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (long i = 0; i < parallel && started < count; i++, started++) {
        handles[i] = curl_easy_init();
        curl_easy_setopt(handles[i], CURLOPT_URL, url);
        curl_easy_setopt(handles[i], CURLOPT_HTTPHEADER, headers);
        curl_easy_setopt(handles[i], CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(handles[i], CURLOPT_POSTFIELDSIZE, bytes);
        curl_easy_setopt(handles[i], CURLOPT_WRITEFUNCTION, discard);
        curl_multi_add_handle(multi, handles[i]);
    }
    while (finished < count) {
        int running = 0, queued = 0;
        curl_multi_perform(multi, &running);
        CURLMsg *message;
        while ((message = curl_multi_info_read(multi, &queued))) {
            if (message->msg != CURLMSG_DONE) continue;
            CURL *easy = message->easy_handle;
            long status = 0;
            curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
            if (message->data.result != CURLE_OK || status < 200 || status > 299) failed++;
            finished++;
            curl_multi_remove_handle(multi, easy);
            if (started < count) {
                curl_multi_add_handle(multi, easy);
                started++;
            }
        }
        if (finished < count) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    double wall = (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9;
    double cpu = seconds(usage.ru_utime) + seconds(usage.ru_stime);
    printf("%ld POSTs of %ld bytes, %ld at a time: %.3f s, %.0f POSTs/s, CPU %.1f us per POST (user %.2f s, system %.2f s)\n",
           count, bytes, parallel, wall, count / wall, cpu / count * 1e6, seconds(usage.ru_utime), seconds(usage.ru_stime));
    for (long i = 0; i < parallel && i < count; i++) {
        curl_multi_remove_handle(multi, handles[i]);
        curl_easy_cleanup(handles[i]);
    }
    curl_multi_cleanup(multi);
    curl_slist_free_all(headers);
    free(body);
    if (failed) {
        fprintf(stderr, "%ld POSTs failed or were not answered 2xx\n", failed);
        return 1;
    }
    return 0;
}
