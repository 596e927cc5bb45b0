# Wake-to-run latency: the cumulative distribution of the time from a
# vCPU's wake-up to its run, over every vCPU of a domain and every
# iteration, one curve per scheduler configuration; log-scale time axis.
# A point is a histogram bucket's upper edge (within 1/16 of the value),
# so the curves are the ones the p50/p95/p99 of the run reports read.
# Dashes tell apart configurations whose curves lie on each other.
#
# schedsim --plot writes the variables this body reads before it:
#   datafile                 latency-*.dat: panel config latency_us fraction count
#   nconfigs, iterations, rowtitle (workload and dom0 load)
#   panel[2]                 panel titles (benchmark guest, dom0)
#   curve[2 * nconfigs]      curve titles, panel 0's configurations first

array colour[8] = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', \
                   '#76b7b2', '#edc948', '#b07aa1', '#9c755f']

set logscale x
# A wake-up served at once (0 ns) is drawn at 1 ns: leave room left of it.
set xrange [5e-4:*]
set xtics ('1 ns' 1e-3, '10 ns' 1e-2, '100 ns' 0.1, '1 us' 1, '10 us' 10, \
           '100 us' 100, '1 ms' 1e3, '10 ms' 1e4, '100 ms' 1e5, '1 s' 1e6, '10 s' 1e7)
set mxtics 10
set ytics 0.1
set yrange [0:1.04]
set grid xtics ytics lc rgb '#dddddd'
set border 3
set tics nomirror
# No x label: the tics carry the units and the title says what is measured.
set ylabel 'fraction of wake-ups at most this long'
set key below box

set multiplot layout 1, 2 title sprintf('wake-to-run latency: %s%s%d iteration%s', \
    rowtitle, rowtitle eq '' ? '' : ', ', iterations, iterations == 1 ? '' : 's') font ',11'
do for [p = 0:1] {
    set title panel[p + 1]
    plot for [c = 0:nconfigs - 1] datafile \
            using (($1 == p && $2 == c) ? $3 : NaN):4 \
            with steps lw (c == 0 ? 2.5 : 1.8) dt 1 + c % 5 \
            lc rgb colour[c % 8 + 1] title curve[p * nconfigs + c + 1]
}
unset multiplot
