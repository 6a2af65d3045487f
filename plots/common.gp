# Shared by the capsim plots (plots/*.gp, driven by `capsim plot`):
# terminal, size and colours. The caller sets fmt ('png' or 'svg'), out
# and, before loading this, height (the width is always 1000 px).
# reset: one gnuplot process draws several figures (src/outputs/gnuplot.h);
# each starts from the defaults, whatever the one before it set
reset
if (fmt eq 'svg') {
	set terminal svg size 1000,height dynamic enhanced font 'Sans,12' background rgb 'white'
} else {
	set terminal pngcairo size 1000,height enhanced font 'Sans,11' background rgb 'white'
}
set output out
# Tableau 10: ten colours told apart at a glance and in print
array pal[10] = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', \
                 '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf']
do for [i = 1:10] { set linetype i lc rgb pal[i] lw 2 pt 7 ps 1.2 }
set grid back lc rgb '#e0e0e0' lw 1
set border lc rgb '#555555'
set key noenhanced
# Clustered bars (energy, compare): a cluster per row r (from 0), 0.8
# wide, a bar bw wide per series s (from 0) of nseries; bars and their
# labels both placed by barx(), so a label sits on its own bar
if (!exists('nseries')) nseries = 1
bw = 0.8 / nseries
barx(r, s) = r + (s - (nseries - 1) / 2.0) * bw
