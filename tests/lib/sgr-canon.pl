#!/usr/bin/perl
# sgr-canon.pl: tmux's capture-pane -e output in a canonical form, so that
# two screens that look the same compare the same.  tmux writes an
# attribute change where its grid changes, and the attributes of blank
# cells past the text (which depend on how curses last erased the line)
# decide whether a reset comes at the end of one line or the start of
# the next.  Here every line starts from the default attributes and
# states them in full before each run of text that differs: "\e[0;1;34;46m".
# A blank shows only its background (and reverse, underline, strike):
# one that looks like the text before it continues that text's run, and
# others state only what shows, so a blank curses wrote and one it
# erased (whose colour and boldness a terminal forgets) compare the same.
# Trailing blanks are dropped.
use strict;
use warnings;

my %st;

sub reset_state { %st = (attr => {}, fg => '39', bg => '49'); }

# Apply one SGR parameter list to the state.
sub apply {
	my @p = split /;/, ($_[0] eq '' ? '0' : $_[0]);
	while (@p) {
		my $c = shift @p;
		if ($c eq '0' || $c eq '') { reset_state(); }
		elsif ($c =~ /^(1|2|3|4|5|7|8|9)$/) { $st{attr}{$c} = 1; }
		elsif ($c eq '22') { delete @{$st{attr}}{1, 2}; }
		elsif ($c =~ /^2([3-9])$/) { delete $st{attr}{$1}; }
		elsif ($c =~ /^(3[0-7]|9[0-7])$/) { $st{fg} = $c; }
		elsif ($c eq '39') { $st{fg} = '39'; }
		elsif ($c =~ /^(4[0-7]|10[0-7])$/) { $st{bg} = $c; }
		elsif ($c eq '49') { $st{bg} = '49'; }
		elsif ($c eq '38' || $c eq '48') {
			my $kind = shift @p // '';
			my $v = $kind eq '5' ? "$c;5;" . (shift @p // '') :
				$kind eq '2' ? "$c;2;" . join(';', splice(@p, 0, 3)) : "$c;$kind";
			$st{$c eq '38' ? 'fg' : 'bg'} = $v;
		}
	}
}

sub canon {
	return join ';', '0', (sort { $a <=> $b } keys %{$st{attr}}), $st{fg}, $st{bg};
}

# What a blank in state %st shows.
sub blank {
	my @shown = grep { /^[4789]$/ } sort { $a <=> $b } keys %{$st{attr}};
	return join ';', '0', @shown, ($st{attr}{7} ? $st{fg} : '39'), $st{bg};
}

# What a blank shows under a canonical state string.
sub shown {
	my @p = split /;/, $_[0];
	shift @p;
	my %a;
	my ($fg, $bg) = ('39', '49');
	# The canonical form: attributes, then fg and bg (one or three
	# numbers each).
	while (@p && $p[0] =~ /^[1-9]$/) { $a{shift @p} = 1; }
	$fg = $p[0] eq '38' ? join(';', splice(@p, 0, 3)) : shift @p;
	$bg = join ';', @p;
	my @shown = grep { /^[4789]$/ } sort { $a <=> $b } keys %a;
	return join ';', '0', @shown, ($a{7} ? $fg : '39'), $bg;
}

reset_state();
my $default = canon();
while (my $line = <STDIN>) {
	chomp $line;
	my ($out, $cur) = ('', $default);
	for my $part (split /(\x1b\[[0-9;]*m)/, $line) {
		if ($part =~ /^\x1b\[([0-9;]*)m$/) {
			apply($1);
			next;
		}
		next if $part eq '';
		for my $run (split /( +)/, $part) {
			next if $run eq '';
			my $want = $run =~ /^ +$/ ? blank() : canon();
			if ($run =~ /^ +$/ && $want eq shown($cur)) {
				$out .= $run;
				next;
			}
			if ($want ne $cur) {
				$out .= "\x1b[${want}m";
				$cur = $want;
			}
			$out .= $run;
		}
	}
	$out =~ s/ +$//;
	$out =~ s/(\x1b\[[0-9;]*m)+$//;
	print "$out\n";
}
