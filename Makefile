# page_pool: a recycling page allocator for NIC RX rings, built and tested
# inside a Linux 6.1 tree. See README.md.
#
# POOL=base runs everything against the base tree's own page_pool,
# POOL=ours against ours.
POOL ?= ours
LOGS := build/logs/$(POOL)
# Boots per variant of 'make bench'.
ROUNDS ?= 5
# Seconds of each part of 'make stress'.
STRESS_SECONDS ?= 60

# Bad values stop make before any work, with one line. SECONDS was the
# old name of STRESS_SECONDS: bash gives that name its own meaning.
# (An x before the value, so that an empty one fails too.)
positive = $(shell echo 'x$(1)' | grep -xE 'x[1-9][0-9]{0,5}')
ifneq ($(filter-out base ours,$(POOL))$(words $(POOL)),1)
$(error POOL must be base or ours, not '$(POOL)')
endif
ifneq ($(call positive,$(ROUNDS)),x$(ROUNDS))
$(error ROUNDS must be a whole number of boots from 1, not '$(ROUNDS)')
endif
ifneq ($(call positive,$(STRESS_SECONDS)),x$(STRESS_SECONDS))
$(error STRESS_SECONDS must be a whole number of seconds from 1, not '$(STRESS_SECONDS)')
endif
ifneq ($(SEED),)
ifneq ($(shell echo '$(SEED)' | grep -xE '[0-9]{1,20}'),$(SEED))
$(error SEED must be a whole number, not '$(SEED)')
endif
endif
# KSRC=/path/to/linux-6.1.y: your own tree in place of Debian's package.
ifneq ($(KSRC),)
export KSRC := $(abspath $(KSRC))
endif
ifeq ($(origin SECONDS),command line)
$(error SECONDS is now STRESS_SECONDS (bash's SECONDS counts time))
endif

.PHONY: all run test deps kunit-um kunit-py um-fpstate kunit-x86_64 kunit-kcsan \
	selftest-um ppsim-um ynl-um ppsim-x86_64 ppsim-kcsan check users bench ring-test ring-bench stress \
	mutants series clean distclean

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

# The suites of net/core/.kunitconfig through the tree's own kunit.py, as
# a KUnit user runs them, in its own UML build folder.
kunit-py: deps
	@scripts/kunit-py.sh $(POOL) $(LOGS)/kunit-py.log
	@scripts/summarize.py $(LOGS)/kunit-py.log

# UML's per-task FP state against the host's: one boot (scripts/um-fpstate.c).
um-fpstate: deps
	@scripts/um-fpstate.sh $(POOL) $(LOGS)/um-fpstate.log
	@scripts/summarize.py $(LOGS)/um-fpstate.log

kunit-x86_64: deps
	@scripts/kunit-x86_64.sh $(POOL) $(LOGS)/kunit-x86_64.log
	@scripts/summarize.py $(LOGS)/kunit-x86_64.log

selftest-um: deps
	@scripts/selftest-um.sh $(POOL) $(LOGS)/selftest-um.log
	@scripts/summarize.py $(LOGS)/selftest-um.log

# The page_pool suites in the KCSAN kernel.
kunit-kcsan: deps
	@scripts/kunit-x86_64.sh $(POOL) $(LOGS)/kunit-kcsan.log x86_64-kcsan
	@scripts/summarize.py $(LOGS)/kunit-kcsan.log

# The simulated NIC's end-to-end selftest in the UML kernel.
ppsim-um: deps
	@scripts/ppsim-um.sh $(POOL) $(LOGS)/ppsim-um.log
	@scripts/summarize.py $(LOGS)/ppsim-um.log

# Upstream 6.12's YNL client, tools/net/ynl/cli.py, unmodified, lists the
# pools of a ppsim device and their stats, in the UML kernel of ppsim-um.
ynl-um: deps
	@scripts/ynl-um.sh $(POOL) $(LOGS)/ynl-um.log
	@scripts/summarize.py $(LOGS)/ynl-um.log

# The same under QEMU x86_64 with DMA (swiotlb=force) and the checkers.
ppsim-x86_64: deps
	@scripts/ppsim-x86_64.sh $(POOL) $(LOGS)/ppsim-x86_64.log
	@scripts/summarize.py $(LOGS)/ppsim-x86_64.log

# And in the KCSAN kernel.
ppsim-kcsan: deps
	@scripts/ppsim-x86_64.sh $(POOL) $(LOGS)/ppsim-kcsan.log x86_64-kcsan
	@scripts/summarize.py $(LOGS)/ppsim-kcsan.log

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

# The return ring on the host's cores: stress and TSan, then the benchmark
# of our ring against ptr_ring alone (make bench runs it too), in
# build/bench/ring.{csv,log,txt}.
ring-test: deps
	@scripts/ring-test.sh $(POOL) $(LOGS)/ring.log
	@scripts/summarize.py $(LOGS)/ring.log

ring-bench: deps
	@mkdir -p build/bench
	@echo variant,test,round,cycles_per_op,ns_per_op > build/bench/ring.csv
	@scripts/ring-bench.sh $(ROUNDS) build/bench/ring.csv
	@scripts/bench-table.py table build/bench/ring.csv | tee build/bench/ring.txt

# The long stress run: STRESS_SECONDS of random pool operations in the
# KASAN and the KCSAN kernel, then as long of the ring's stress; SEED=N
# replays. Ends with the reliability figures of every log there is, also
# in $(LOGS)/stress/reliability.md (the README's copy is updated by hand).
stress: deps
	@rm -rf $(LOGS)/stress
	@scripts/stress.sh $(POOL) $(STRESS_SECONDS) $(LOGS)/stress
	@scripts/summarize.py $(LOGS)/stress/*.log
	@scripts/reliability-table.py --out $(LOGS)/stress/reliability.md \
		$(LOGS)/*.log $(LOGS)/stress/*.log

# The mutation run: each bug of scripts/mutants.txt applied in turn to a
# scratch copy in build/mutants, and the stage it names run there. About
# 70 minutes on two cores, so not part of 'test'. ONLY=N,N and STAGE=S
# pick mutants.
mutants: deps
	@scripts/mutants.sh $(if $(ONLY),--only $(ONLY)) $(if $(STAGE),--stage $(STAGE))

# The project as a git series against the base tree, signed with your
# git identity: build/series/*.patch, cover letter first. make test checks
# it (scripts/series.sh check-applied and check-built).
series: deps
	@scripts/series.sh generate

# Build folders are kept between runs: 'clean' drops only the logs.
clean:
	rm -rf build/logs

distclean:
	rm -rf build
