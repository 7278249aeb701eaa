# The JSON report (CRASH_FORMAT=json, both) of real crashes, validated against
# docs/report.schema.json and compared fact by fact with the text report.
TESTS += tests/json/run-json.sh
EXTRA_DIST += tests/json/run-json.sh tests/json/check-json.py
