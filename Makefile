# page_pool: a recycling page allocator for NIC RX rings, built and tested
# inside a Linux 6.1 tree. See README.md.
#
# POOL=base runs everything against the base tree's own page_pool,
# POOL=ours against ours.
POOL ?= ours
LOGS := build/logs/$(POOL)
# Boots per variant of 'make bench'.
ROUNDS ?= 5

.PHONY: all run test deps kunit-um kunit-x86_64 selftest-um check users bench \
	clean distclean

all: run

deps:
	@scripts/install-deps.sh

# The main job: build the UML kernel, run the suites, summarise; then one
# boot of the benchmark kernel shows our pool against the page allocator.
run: deps
	@scripts/run.sh $(POOL)

# Everything CI checks; the last line is 'N passed, N failed'.
test: deps
	@scripts/test.sh $(POOL)

kunit-um: deps
	@scripts/kunit-um.sh $(POOL) $(LOGS)/kunit-um.log
	@scripts/summarize.py $(LOGS)/kunit-um.log

kunit-x86_64: deps
	@scripts/kunit-x86_64.sh $(POOL) $(LOGS)/kunit-x86_64.log
	@scripts/summarize.py $(LOGS)/kunit-x86_64.log

selftest-um: deps
	@scripts/selftest-um.sh $(POOL) $(LOGS)/selftest-um.log
	@scripts/summarize.py $(LOGS)/selftest-um.log

check: deps
	@scripts/check.sh $(POOL) $(LOGS)/check.log
	@scripts/summarize.py $(LOGS)/check.log

# Every 6.1 user of the page_pool API, compiled against POOL's headers.
users: deps
	@scripts/compile-users.sh $(POOL) $(LOGS)/users.log
	@scripts/summarize.py $(LOGS)/users.log

# Our pool against the base tree's: ROUNDS boots of each benchmark kernel,
# build/bench/results.{csv,txt,png}.
bench: deps
	@scripts/bench.sh $(ROUNDS)

# Build folders are kept between runs: 'clean' drops only the logs.
clean:
	rm -rf build/logs

distclean:
	rm -rf build
