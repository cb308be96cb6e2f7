// Package dataset reads the task sets of open-web benchmarks in their
// published formats, for webagent eval --dataset: tasks with a site and
// an instruction and no checks, which a judge scores.
//
//   - WebVoyager (MinorJerry/WebVoyager, data/tasks_test.jsonl): JSON
//     lines {"web_name", "id", "ques", "web"}; the site is web_name.
//   - Online-Mind2Web (OSU-NLP-Group/Online-Mind2Web, the Hugging Face
//     set osunlp/Online-Mind2Web): objects {"task_id", "confirmed_task",
//     "website", "reference_length", "level"}, as JSON lines or as one
//     JSON array (the published file); the site is the website's host
//     without "www.", the level easy, medium or hard.
//
// A task may carry a person's verdict on a run of it in "human_label"
// (true or false, "success" or "failure", 1 or 0), which the report
// compares with the judge's. Other fields are ignored.
//
// [Load] reads a file; a line that is not a task of its format (not JSON,
// a field missing or of the wrong type, an id seen before) is an *[Error]
// naming the file and the line. [Select] keeps the tasks of some sites and
// levels, [Sample] a reproducible sample of them. No dataset ships with
// webagent: give the file you downloaded.
package dataset
